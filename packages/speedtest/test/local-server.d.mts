/** A request's body as the test may read it (Node's IncomingMessage, in the terms the tests use). */
export interface RequestBody {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The answer as the test may write it (Node's ServerResponse, in the terms the tests use). */
export interface ServerResponse {
  statusCode: number;
  end(body?: string): void;
}

/** What a test may do with a request before the server answers it: 'handled' when it answered (or never will). */
export type Behaviour = (url: URL, response: ServerResponse, request: RequestBody) => 'handled' | undefined;

export interface LocalServer {
  /** http://127.0.0.1:<port>, the engine's `serverUrl`. */
  url: string;
  close(): Promise<void>;
}

export function startLocalServer(behave?: Behaviour): Promise<LocalServer>;

/** Answers with `bytes` zeros compressed with gzip (`Content-Encoding: gzip`), as a compressing proxy would. */
export function sendGzippedZeros(response: ServerResponse, bytes: number): void;

/** Answers with `bytes` zeros, `chunkBytes` every `everyMs`: a steady link of that rate. */
export function sendPaced(response: ServerResponse, bytes: number, chunkBytes: number, everyMs: number): void;
