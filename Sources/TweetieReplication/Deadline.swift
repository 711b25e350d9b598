import Synchronization

/// Runs `body` in a task of its own and waits for it at most `timeout`: `nil` when the time ran
/// out first. The task is then cancelled and left to end on its own.
///
/// A task group would not do: it waits for every child, and a postgres-nio call on a connection
/// the server dropped can ignore cancellation until the channel notices, which may be never.
func withDeadline<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    let race = DeadlineRace<T>()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
        race.waiter.withLock { $0 = continuation }
        let work = Task {
            let result: Result<T?, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            race.timer.withLock { $0?.cancel() }
            race.waiter.withLock { $0.take() }?.resume(with: result)
        }
        let sleeper = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let continuation = race.waiter.withLock({ $0.take() }) else { return }
            work.cancel()
            continuation.resume(returning: nil)
        }
        race.timer.withLock { $0 = sleeper }
    }
}

/// Who resumes the caller of ``withDeadline(_:_:)`` first: the work or the timer.
private final class DeadlineRace<T: Sendable>: Sendable {
    let waiter = Mutex<CheckedContinuation<T?, any Error>?>(nil)
    let timer = Mutex<Task<Void, Never>?>(nil)
}
