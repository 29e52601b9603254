import Foundation

/// Runs `body` on a thread of its own, started now.
///
/// For a test that waits — or spins — until another thread gets somewhere:
/// work handed to a global dispatch queue shares the threads that run the
/// tests themselves, and with every one of them busy waiting (two cores,
/// two tests spinning) it may never start.
func onNewThread(_ body: @escaping @Sendable () -> Void) {
  Thread(block: body).start()
}
