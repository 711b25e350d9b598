func bytes(_ string: String) -> [UInt8] { Array(string.utf8) }

func bigEndian(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
