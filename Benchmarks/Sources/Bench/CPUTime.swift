import Foundation

/// User and system CPU time this process has spent so far, in seconds.
func processCPUSeconds() -> Double {
    let usage = processUsage()
    return usage.user + usage.system
}

/// User and system CPU seconds, and voluntary and involuntary context switches, of this process
/// so far.
func processUsage() -> (user: Double, system: Double, voluntary: Double, involuntary: Double) {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (seconds(usage.ru_utime), seconds(usage.ru_stime), Double(usage.ru_nvcsw), Double(usage.ru_nivcsw))
}
