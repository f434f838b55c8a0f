// The engine's names the inspector webview shows — the eight section names, the decisions a
// message can get, the roles — re-exported so that the webview imports nothing from src/engine:
// src/shared (this file and protocol.ts) is its only way to the other layers.

export type { Role } from '../engine/conversation/model';
export { DECISIONS, type Decision } from '../engine/result';
export { SECTION_NAMES, type SectionName } from '../engine/sections';
