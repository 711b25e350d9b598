import Testing

/// Every suite that uses the PostgreSQL server, one after another: a transaction that one test holds
/// open on purpose (or a snapshot it reads) holds back every reader of the cluster, in every
/// database, so such tests must not overlap with those that time or count what a pull reads.
@Suite(.serialized) enum PostgresSuites {}
