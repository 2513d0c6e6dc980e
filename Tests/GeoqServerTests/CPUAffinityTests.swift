import Foundation
import Testing

@testable import GeoqServer

/// The affinity mask read from /proc: Linux's CPU list format, and `nproc` (which asks
/// sched_getaffinity) as the oracle for this process.
@Suite struct CPUAffinityTests {
    @Test(arguments: [
        ("0", 1), ("0-1", 2), ("0-3,8,10-11", 7), ("\t2-2,5 ", 2), ("0-127", 128),
    ])
    func listsAreCounted(list: String, count: Int) {
        #expect(CPUAffinity.count(list: Substring(list)) == count)
    }

    @Test(arguments: ["", "3-1", "a", "0-1-2", "-1", "1,", "0--1"])
    func malformedListsAreNone(list: String) {
        #expect(CPUAffinity.count(list: Substring(list)) == nil)
    }

    @Test func thisProcessAsNprocSeesIt() throws {
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        let pipe = Pipe()
        nproc.standardOutput = pipe
        try nproc.run()
        nproc.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let expected = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(CPUAffinity.allowedProcessors() == expected)
    }
}
