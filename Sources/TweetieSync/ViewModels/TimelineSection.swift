/// One section of a timeline: the tweets of one UTC day (or all of them), newest first. The same
/// type as a timeline feed's sections.
///
/// ```swift
/// for section in update.sections { print(section.title, section.rows.count) }
/// ```
public typealias TimelineSection = FeedSection<TimelineRow>
