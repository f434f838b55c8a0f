// Requests to the extension host with ids, and the notifications it sends. Each request gets
// exactly one response; a response for an unknown id (a reload dropped the request) is ignored.

import type { HostNotification, HostToWebview, ResponseValues, WebviewNotification, WebviewRequest, WebviewRequestType } from '../../../src/shared/protocol';
import { postToHost } from './vscodeApi';

/** A request the host answered with ok: false. `cancelled`: superseded, not worth showing. */
export class HostRequestError extends Error {
  constructor(
    message: string,
    readonly cancelled: boolean,
  ) {
    super(message);
    this.name = 'HostRequestError';
  }
}

type RequestBody<K extends WebviewRequestType> = Omit<Extract<WebviewRequest, { type: K }>, 'type' | 'id'>;

interface Pending {
  request: WebviewRequestType;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

const NOTIFICATION_TYPES: ReadonlySet<string> = new Set(['init', 'busy', 'stale', 'error']);

export class HostChannel {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly onNotification: (n: HostNotification) => void) {
    window.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
  }

  request<K extends WebviewRequestType>(type: K, body: RequestBody<K>): Promise<ResponseValues[K]> {
    const id = this.nextId++;
    return new Promise<ResponseValues[K]>((resolve, reject) => {
      this.pending.set(id, { request: type, resolve: resolve as (v: unknown) => void, reject });
      postToHost({ type, id, ...body } as WebviewRequest);
    });
  }

  notify(message: WebviewNotification): void {
    postToHost(message);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    const message = data as HostToWebview;
    if (message.type === 'response') {
      const p = this.pending.get(message.id);
      if (!p || p.request !== message.request) return;
      this.pending.delete(message.id);
      if (message.ok) p.resolve(message.value);
      else p.reject(new HostRequestError(message.error, message.cancelled === true));
      return;
    }
    if (typeof message.type === 'string' && NOTIFICATION_TYPES.has(message.type)) this.onNotification(message);
  }
}
