// TweetieDB is two modules, so that the store compiles while swift-syntax does: TweetieDBCore
// (everything but the macros; no macro dependency) and this one, which declares the macros and
// re-exports the core. `import TweetieDB` is all a user writes.
@_exported import TweetieDBCore
