// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target for the scene-file reader, the world it builds, and the batch API's bulk calls
// (`make fuzz`). The first byte chooses: below 0x80, the rest is a scene file, read as JSON or YAML (the
// byte's low bit chooses), which must give a document or problems, never a crash; a document that reads
// is built into a world (at most 200 items) and stepped. From 0x80, the rest is a program of batch calls
// (BatchProgram.swift). Without FUZZING it replays the files given as arguments (the committed corpus),
// so that `make test` checks them too.
import Dynamics
import DynamicsScenes
import Foundation

/// One input: a batch program, or a scene file to read and, when it is a scene, build and step.
func exercise(_ data: Data) {
    guard let first = data.first else { return }
    if first >= 0x80 {
        guard var program = try? BatchProgram(data.dropFirst()) else { preconditionFailure("no world") }
        program.run()
        return
    }
    var limits = SceneLimits()
    limits.items = 200
    limits.depth = 32
    let (document, problems) = SceneDocument.read(data.dropFirst(), yaml: first & 1 == 1, limits: limits)
    guard var document else {
        precondition(problems.contains { $0.severity == .error }, "no document and no error")
        return
    }
    document.configuration.workers = 1
    document.configuration.duration = 0.05
    guard let run = try? SceneRun(document) else { return }  // bad data the reader cannot see throws
    for _ in 0..<3 { try? run.step() }
    _ = run.world.stateHash()
    precondition(SceneDocument.read(Data(document.json.utf8), yaml: false, limits: limits).0 == document,
                 "a document does not read back from its own JSON")
}

#if FUZZING
/// libFuzzer's driver, for a program with its own entry point.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The function libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    exercise(bytes.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

/// The entry point SwiftPM links an executable target through (it defines `main` as the target's entry
/// point): it hands the arguments to libFuzzer's driver.
@_cdecl("SceneFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc, arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in fuzzOne(bytes, size) }
}
#else
@main
struct SceneFuzzer {
    static func main() throws {
        let files = CommandLine.arguments.dropFirst()
        for path in files { exercise(try Data(contentsOf: URL(fileURLWithPath: path))) }
        print("replayed \(files.count) input\(files.count == 1 ? "" : "s")")
    }
}
#endif
