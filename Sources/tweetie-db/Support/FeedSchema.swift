/// The JSON Schema of the feed's lines, as `tweetie-db feed --schema` prints it.
///
/// Rules: the published file `schemas/tweetie-feed.schema.json` is the only copy. The executable
/// embeds it at build time (`Resources/tweetie-feed.schema.json` is a symbolic link to it, a
/// resource `.embedInCode` in Package.swift), so editing the file is all a schema change takes;
/// FeedSchemaCLITests checks that `feed --schema` prints it byte for byte.
enum FeedSchema {
    /// The schema's text, without the file's final newline (``Out/line(_:)`` adds it back).
    static let text: String = {
        let text = String(decoding: PackageResources.tweetie_feed_schema_json, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }()
}
