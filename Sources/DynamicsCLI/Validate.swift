// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DynamicsScenes
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene file and list every problem.",
        discussion: """
            Prints each problem as its JSON Pointer and reason, errors and warnings. Exit status (sysexits): \
            0 valid (warnings allowed), 64 usage, 65 the scene has errors, 66 the file cannot be opened, \
            74 reading failed.
            """
    )

    @Argument(help: "A scene file (.json, .yaml or .yml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var scene: String

    @OptionGroup var limits: LimitOptions

    func run() throws {
        try reportingFailures {
            let url = URL(fileURLWithPath: scene)
            guard let handle = try? FileHandle(forReadingFrom: url) else {
                throw CLIError(.noInput, "cannot open \(scene): \(String(cString: strerror(errno)))")
            }
            let data: Data
            do {
                data = try handle.read(upToCount: limits.limits.bytes + 1) ?? Data()
            } catch {
                throw CLIError(.io, "cannot read \(scene): \(error.localizedDescription)")
            }
            let yaml = ["yaml", "yml"].contains(url.pathExtension.lowercased())
            let (document, problems) = SceneDocument.read(data, yaml: yaml, limits: limits.limits)
            for problem in problems { print("\(scene): \(problem)") }
            guard document != nil else {
                let errors = problems.filter { $0.severity == .error }.count
                throw CLIError(.data, "\(scene): \(errors) error\(errors == 1 ? "" : "s")")
            }
            let warnings = problems.count
            print("\(scene): valid\(warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : "")")
        }
    }
}
