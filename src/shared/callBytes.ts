// Kept apart from contract.ts, as sessionProof.ts is: the renderer's HTTP client needs only these, without zod.

/**
 * Browser mode: a call whose `data` is bytes (a photo's chunk, `photos.addChunk`) is sent as the body of its request,
 * of this type, rather than as JSON: `POST /api/call/<method>`, the bytes as the body, the call's other arguments as
 * JSON in `CALL_ARGS_HEADER`. The core reads them as the arguments `{ ...other, data: bytes }`, checked as any call's
 * are. (Over Electron's IPC the bytes travel as they are, with the other arguments.)
 */
export const CALL_BYTES_TYPE = 'application/octet-stream';
/** The header with a bytes call's other arguments, as JSON (an object without `data`). */
export const CALL_ARGS_HEADER = 'x-innkeeper-args';
