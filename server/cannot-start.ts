// How a process that cannot start ends: the server (main.ts) and the delivery worker (worker.ts).

/**
 * Ends a start that cannot go on (an administrator who could never sign in, an unreachable
 * database, a port in use) with a line saying why, then the error itself. Left uncaught, Node
 * would first quote the failing source line: in the server's bundle, thousands of characters.
 */
export function cannotStart(error: unknown): never {
  console.error(
    `Sebar tidak dapat dimulai: ${error instanceof Error ? error.message : String(error)}`,
  );
  console.error(error);
  process.exit(1);
}
