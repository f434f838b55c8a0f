// The host globals the engine uses, as far as it uses them. Every host it runs in (Node, the
// VS Code extension host, a browser) provides the full versions; only the engine's own type-check
// (src/engine/tsconfig.json) reads this file, so a new global must be added here on purpose.

interface TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare const TextEncoder: { new (): TextEncoder };

interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare const TextDecoder: { new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
