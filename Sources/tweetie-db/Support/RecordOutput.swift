import Foundation
import TweetieSync

/// Prints records as a table, a JSON array, or NDJSON.
func printRecords<R: Encodable>(_ records: [R], format: OutputFormat, table: ([R]) -> String) throws {
    let encoder = RecordJSON.encoder()
    switch format {
    case .table:
        Out.write(table(records))
    case .json:
        encoder.outputFormatting.insert(.prettyPrinted)
        Out.line(String(decoding: try encoder.encode(records), as: UTF8.self))
    case .ndjson:
        for record in records { Out.line(String(decoding: try encoder.encode(record), as: UTF8.self)) }
    }
}
