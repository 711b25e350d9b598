import Foundation
import Testing

/// The build prints no warning of ours. The macro target is the one compiled for every package
/// that uses `@Record`, and it builds against swift-syntax, whose deprecations arrive with its
/// updates: a deprecated default implementation of `MemberMacro` printed one warning per
/// compilation of the target, five in every clean build.
@Suite("A build without warnings")
struct WarningFreeBuildTests {
    @Test func theMacroTargetCompilesWithoutAWarning() throws {
        let output = try SwiftCompiler.typecheckMacroSources()
        #expect(output.status == 0 && output.errors.isEmpty, "\(output.text)")
        #expect(output.warnings.isEmpty, "\(output.warnings.map(\.description).joined(separator: "\n"))")
    }
}
