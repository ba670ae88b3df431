// SPDX-License-Identifier: Apache-2.0
import Foundation

extension String {
    /// The text of a small file read through a file handle, or nil. (`String(contentsOfFile:)` leaks its
    /// buffer for a file whose size reads as 0, as /proc's files and empty files do, which LeakSanitizer
    /// reports.)
    init?(smallFile path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()  // nil at the end of an empty file
        } catch {
            return nil
        }
        self = String(decoding: data, as: UTF8.self)
    }
}
