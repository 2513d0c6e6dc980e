import Foundation
import GeoqStore
import Testing

@testable import GeoqServer

/// The writer's unfolded tracks: a read-back finds a device's latest track whether it was logged
/// after the last plan or belongs to the plan being folded, a finished fold lets go only of the
/// plan's tracks, and a plan made after a failed one folds what that one left.
@Suite struct UnfoldedTracksTests {
    let unfolded = UnfoldedTracks()

    func track(_ device: String, _ state: String, layer: String = "squares") -> TrackRow {
        TrackRow(tenant: "acme", device: device, layer: layer, state: Array(state.utf8))
    }

    func found(_ device: String, layer: String = "squares") -> String? {
        unfolded.tracks(tenant: "acme", devices: [device])[device]?[layer].map {
            String(decoding: $0.state, as: UTF8.self)
        }
    }

    @Test func theLatestTrackIsFoundBeforeAndDuringAFold() {
        unfolded.keep([[track("a", "1"), track("b", "1")]], at: 10)
        #expect(found("a") == "1")
        let planned = unfolded.plan().sorted()
        #expect(planned.map(\.row.device) == ["a", "b"])
        #expect(planned.map(\.updated) == [10, 10])
        // Being folded: still found, and a later track of a device is found over it.
        unfolded.keep([[track("a", "2")]], at: 11)
        #expect(found("a") == "2")
        #expect(found("b") == "1")
        unfolded.folded()
        // b is in the table now; a's later track is not.
        #expect(found("b") == nil)
        #expect(found("a") == "2")
        #expect(!unfolded.isEmpty)
        #expect(unfolded.plan().sorted().map(\.row.device) == ["a"])
        unfolded.folded()
        #expect(unfolded.isEmpty)
    }

    @Test func aPlanAfterAFailedOneFoldsWhatThatOneLeft() {
        unfolded.keep([[track("a", "1"), track("b", "1")]], at: 10)
        _ = unfolded.plan()
        // The plan failed (no `folded()`); more tracks come meanwhile.
        unfolded.keep([[track("b", "2"), track("c", "1")]], at: 12)
        let next = unfolded.plan().sorted()
        #expect(next.map(\.row.device) == ["a", "b", "c"])
        #expect(next.map { String(decoding: $0.row.state, as: UTF8.self) } == ["1", "2", "1"])
        #expect(next.map(\.updated) == [10, 12, 12])
    }

    @Test func eachLayerOfADeviceIsKeptApart() {
        unfolded.keep([[track("a", "on squares"), track("a", "on streets", layer: "streets")]], at: 10)
        #expect(found("a") == "on squares")
        #expect(found("a", layer: "streets") == "on streets")
        unfolded.foldedAll()
        #expect(found("a") == nil)
        #expect(unfolded.isEmpty)
    }

    /// A group commit's rows come in runs of one tenant's layer, of any length; they are kept a
    /// thousand at a time, and a run may cross from one thousand to the next.
    @Test func runsOfSeveralTenantsAndLayersAreEachKeptInTheirPlace() {
        var rows: [TrackRow] = []
        var expected: [String: String] = [:]
        for (run, length) in [999, 3, 1_500, 1, 700].enumerated() {
            let tenant = run % 2 == 0 ? "acme" : "umbrella"
            let layer = run < 3 ? "squares" : "streets"
            for i in 0..<length {
                let device = "d\(i)"
                rows.append(TrackRow(tenant: tenant, device: device, layer: layer, state: Array("\(run)".utf8)))
                expected["\(tenant)/\(layer)/\(device)"] = "\(run)"
            }
        }
        unfolded.keep([rows], at: 10)
        var kept: [String: String] = [:]
        for tenant in ["acme", "umbrella"] {
            for (device, layers) in unfolded.tracks(tenant: tenant, devices: (0..<1_500).map { "d\($0)" }) {
                for (layer, row) in layers {
                    #expect(row.tenant == tenant && row.device == device && row.layer == layer)
                    kept["\(tenant)/\(layer)/\(device)"] = String(decoding: row.state, as: UTF8.self)
                }
            }
        }
        #expect(kept == expected)
        #expect(unfolded.plan().sorted().count == expected.count)
    }
}
