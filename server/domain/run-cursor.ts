/**
 * Run listings page newest first with keyset (cursor) pagination on (startedAt, id): stable while runs
 * are being added, and an index range scan at any depth, unlike OFFSET. The cursor is opaque to
 * clients: the last row's start time and id, base64url-encoded.
 */
export interface RunCursor {
  startedAt: Date;
  id: string;
}

export function encodeCursor(cursor: RunCursor): string {
  return Buffer.from(`${cursor.startedAt.toISOString()}|${cursor.id}`).toString("base64url");
}

export function decodeCursor(cursor: string): RunCursor | null {
  const [time, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const startedAt = new Date(time ?? "");
  return id && !Number.isNaN(startedAt.getTime()) ? { startedAt, id } : null;
}
