// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// `--output FILE.npz`: NumPy's archive of arrays, readable with `numpy.load` and no conversion: `step`
/// (frames, int64), `time` (frames, float64, s), `id` (items, unicode), and `x`, `y` (pt), `angle` (rad),
/// `vx`, `vy` (pt/s), `omega` (rad/s), each (frames, items) float32. Each column streams to a temporary file
/// as the run goes (nothing of the run is held in memory); the archive (stored, not compressed) is put
/// together at the end.
final class NumpyArchiveWriter: FrameSink {
    static let columns = ["x", "y", "angle", "vx", "vy", "omega"]

    let file: AtomicFile
    let source: FrameSource
    let ids: [ItemID]
    private var parts: [AtomicFile] = []
    private var crcs: [UInt32]
    private var sizes: [Int]
    private var steps: [Int64] = [], times: [Double] = []

    init(path: String, source: FrameSource) throws {
        self.source = source
        ids = source.ids
        let bytes = 4 * Double(source.frames) * Double(max(ids.count, 1))
        guard bytes < 4.0e9 else {
            throw CLIError(.usage, String(format: "--output %@: each column would hold %.1f GB, more than a .npz entry's 4 GB; "
                                          + "write fewer frames (--every) or items (--track)", path, bytes / 1e9))
        }
        file = try AtomicFile(path)
        let header = Self.header(descr: "<f4", shape: [source.frames, ids.count])
        crcs = Array(repeating: CRC32.update(0, header), count: Self.columns.count)
        sizes = Array(repeating: header.count, count: Self.columns.count)
        for name in Self.columns {
            let part = try AtomicFile(path + "." + name)
            try part.write(header)
            parts.append(part)
        }
    }

    func frame(step: Int, time: Double) throws {
        steps.append(Int64(step))
        times.append(time)
        var columns = Array(repeating: [Float](repeating: 0, count: ids.count), count: Self.columns.count)
        for (k, id) in ids.enumerated() {
            let (c, a) = source.world.pose(of: id)
            let v = source.world.velocity(of: id), w = source.world.angularVelocity(of: id)
            (columns[0][k], columns[1][k], columns[2][k]) = (Float(c.x), Float(c.y), Float(a))
            (columns[3][k], columns[4][k], columns[5][k]) = (Float(v.dx), Float(v.dy), Float(w))
        }
        for (j, values) in columns.enumerated() {
            let data = values.withUnsafeBufferPointer { Data(buffer: $0) }  // little-endian on every supported machine
            crcs[j] = CRC32.update(crcs[j], data)
            sizes[j] += data.count
            try parts[j].write(data)
        }
    }

    func checkpoint() throws -> SinkCheckpoint {
        var state = SinkCheckpoint(files: try ([file] + parts).map { try $0.checkpoint() })
        (state.crcs, state.sizes, state.steps, state.times) = (crcs, sizes, steps, times)
        return state
    }

    func resume(_ state: SinkCheckpoint) throws {
        guard let crcs = state.crcs, let sizes = state.sizes, let steps = state.steps, let times = state.times,
              crcs.count == parts.count, sizes.count == parts.count, steps.count == times.count
        else { throw CLIError(.data, "the checkpoint's .npz output is incomplete") }
        try state.resume([file] + parts)
        (self.crcs, self.sizes, self.steps, self.times) = (crcs, sizes, steps, times)
    }

    func finish() throws {
        var zip = ZipWriter(file: file)
        try zip.add("step.npy", Self.header(descr: "<i8", shape: [steps.count]) + steps.withUnsafeBufferPointer { Data(buffer: $0) })
        try zip.add("time.npy", Self.header(descr: "<f8", shape: [times.count]) + times.withUnsafeBufferPointer { Data(buffer: $0) })
        let names = source.names, width = max(1, names.map(\.unicodeScalars.count).max() ?? 1)
        var text = Data()
        for name in names {
            var scalars = name.unicodeScalars.map(\.value)
            scalars += Array(repeating: 0, count: width - scalars.count)
            scalars.withUnsafeBufferPointer { text.append(Data(buffer: $0)) }
        }
        try zip.add("id.npy", Self.header(descr: "<U\(width)", shape: [names.count]) + text)
        for (j, name) in Self.columns.enumerated() {
            try parts[j].flush()
            try zip.add("\(name).npy", from: parts[j].temporary, size: sizes[j], crc: crcs[j])
            parts[j].discard()
        }
        try zip.finish()
        try file.commit()
    }

    /// An .npy (version 1.0) header for a C-ordered array, padded to a multiple of 64 bytes.
    static func header(descr: String, shape: [Int]) -> Data {
        let dims = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        var dict = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(dims), }"
        let total = 10 + dict.utf8.count + 1
        dict += String(repeating: " ", count: (64 - total % 64) % 64) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0])
        let length = UInt16(dict.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: Array(dict.utf8))
        return data
    }
}

/// A zip archive of stored (uncompressed) entries, written in order: each local header, its data, then
/// the central directory.
struct ZipWriter {
    let file: AtomicFile
    private var offset = 0
    private var directory = Data()
    private var count = 0

    init(file: AtomicFile) { self.file = file }

    mutating func add(_ name: String, _ data: Data) throws {
        try header(name, size: data.count, crc: CRC32.update(0, data))
        try file.write(data)
        offset += data.count
    }

    /// An entry whose bytes are in a file (copied in 4 MiB pieces).
    mutating func add(_ name: String, from url: URL, size: Int, crc: UInt32) throws {
        try header(name, size: size, crc: crc)
        guard let input = try? FileHandle(forReadingFrom: url) else { throw CLIError(.io, "cannot read \(url.path)") }
        defer { try? input.close() }
        while let piece = try input.read(upToCount: 4 << 20), !piece.isEmpty { try file.write(piece) }
        offset += size
    }

    private mutating func header(_ name: String, size: Int, crc: UInt32) throws {
        let nameBytes = Data(name.utf8)
        var local = Data()
        local.le32(0x0403_4B50); local.le16(20); local.le16(0); local.le16(0); local.le16(0); local.le16(0x21)
        local.le32(crc); local.le32(UInt32(size)); local.le32(UInt32(size)); local.le16(UInt16(nameBytes.count)); local.le16(0)
        local.append(nameBytes)
        var central = Data()
        central.le32(0x0201_4B50); central.le16(20); central.le16(20); central.le16(0); central.le16(0); central.le16(0)
        central.le16(0x21); central.le32(crc); central.le32(UInt32(size)); central.le32(UInt32(size))
        central.le16(UInt16(nameBytes.count)); central.le16(0); central.le16(0); central.le16(0); central.le16(0); central.le32(0)
        central.le32(UInt32(offset))
        central.append(nameBytes)
        directory.append(central)
        count += 1
        try file.write(local)
        offset += local.count
    }

    mutating func finish() throws {
        var end = Data()
        end.le32(0x0605_4B50); end.le16(0); end.le16(0); end.le16(UInt16(count)); end.le16(UInt16(count))
        end.le32(UInt32(directory.count)); end.le32(UInt32(offset)); end.le16(0)
        try file.write(directory)
        try file.write(end)
    }
}

extension Data {
    mutating func le16(_ v: UInt16) { append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)]) }
    mutating func le32(_ v: UInt32) { for k in 0..<4 { append(UInt8((v >> (8 * UInt32(k))) & 0xFF)) } }
}

/// CRC-32 (IEEE 802.3, as zip uses), table-driven.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func update(_ crc: UInt32, _ data: Data) -> UInt32 {
        var c = ~crc
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }
}
