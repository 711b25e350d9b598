/// Helpers for strictly ascending index lists.
enum SortedIndices {
    /// Merges two ascending lists into one ascending list.
    static func merge<T: Comparable>(_ first: [T], _ second: [T]) -> [T] {
        var merged: [T] = []
        merged.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count && j < second.count {
            if first[i] <= second[j] {
                merged.append(first[i])
                i += 1
            } else {
                merged.append(second[j])
                j += 1
            }
        }
        merged.append(contentsOf: first[i...])
        merged.append(contentsOf: second[j...])
        return merged
    }

    /// The index of the first element `>= value` in an ascending list.
    static func lowerBound<T: Comparable>(_ list: [T], _ value: T) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) >> 1
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first offset at which `list` is not strictly ascending, if any.
    static func firstDisorder<T: Comparable>(_ list: [T]) -> Int? {
        var index = 1
        while index < list.count {
            if !(list[index - 1] < list[index]) { return index }
            index += 1
        }
        return nil
    }
}
