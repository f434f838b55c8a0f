// The Sessions view's tree: this workspace's sessions grouped by agent (the group of the newest
// session first), newest first within a group, with the sub-agents and compacted sessions of a
// session under it (a Claude Code session compacted into a Codex rollout too). A row shows the
// title, the meter's numbers and the last activity; its contextValue says which actions apply.
// A session that holds nothing (an empty Copilot Chat, a task never started) is not listed: its row
// would be an id and "empty"; a file that cannot be read is listed with its error.

import * as vscode from 'vscode';
import type { AgentId, AgentSession } from '../../sessions/agentSession';
import { parentOf } from '../../sessions/sessionCatalog';
import { Disposable } from '../lifecycle';
import { resumableAgent } from './sessionWriteBack';
import { agentById, agentName } from '../../sessions/agents/registry';
import { rowTitle, sessionDescription, sessionTitle, sessionTooltip } from './sessionText';

export type SessionsNode = { kind: 'agent'; agent: AgentId } | { kind: 'session'; file: string };

/** The row's actions (package.json menus match on it): resumable sessions compact into a new
 *  session and resume in a terminal, the others compact into a handoff; sub-agents and unreadable
 *  sessions only reveal their file (and a sub-agent inspects). */
export function sessionContextValue(s: AgentSession): string {
  if (s.error) return 'session.error';
  if (s.relation === 'subagent') return 'session.subagent';
  return resumableAgent(s) ? 'session.resumable' : 'session.handoff';
}

/** The list, newest first, arranged as the tree shows it. */
interface TreeIndex {
  list: readonly AgentSession[];
  /** Agents in the order of their newest session. */
  agents: AgentId[];
  topLevel: Map<AgentId, AgentSession[]>;
  /** Sessions listed under a session, by its file. */
  children: Map<string, AgentSession[]>;
  parents: Map<string, AgentSession>;
}

export interface SessionsSource {
  readonly sessions: readonly AgentSession[];
  byFile(file: string): AgentSession | undefined;
}

export class SessionsTree extends Disposable implements vscode.TreeDataProvider<SessionsNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<SessionsNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** One node object per row, so the view keeps selection and expansion across refreshes. */
  private readonly agentNodes = new Map<AgentId, SessionsNode>();
  private readonly sessionNodes = new Map<string, SessionsNode>();
  private indexed: TreeIndex | undefined;

  constructor(
    private readonly source: SessionsSource,
    /** The session the meter follows: its row carries the meter's icon. */
    private readonly followed: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /** Whether a session has a row: it holds messages, or it cannot be read (the error is shown). */
  static listed(s: AgentSession): boolean {
    return !!s.error || s.messages > 0;
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: SessionsNode): SessionsNode[] {
    const index = this.index();
    if (!node) return index.agents.map((a) => this.agentNode(a));
    const list = node.kind === 'agent' ? (index.topLevel.get(node.agent) ?? []) : (index.children.get(node.file) ?? []);
    return list.map((s) => this.sessionNode(s.file));
  }

  /** Lets the view reveal a row (a session just written, under the one it came from). */
  getParent(node: SessionsNode): SessionsNode | undefined {
    if (node.kind === 'agent') return undefined;
    const s = this.source.byFile(node.file);
    if (!s) return undefined;
    const parent = this.index().parents.get(s.file);
    return parent ? this.sessionNode(parent.file) : this.agentNode(s.agent);
  }

  /** The row of the session in `file`. */
  nodeOf(file: string): SessionsNode {
    return this.sessionNode(file);
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(agentName(node.agent), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `agent:${node.agent}`;
      const count = this.index().list.filter((s) => s.agent === node.agent && SessionsTree.listed(s)).length;
      item.description = count === 1 ? vscode.l10n.t('1 session') : vscode.l10n.t('{0} sessions', count);
      item.contextValue = 'agent';
      item.iconPath = new vscode.ThemeIcon(agentById(node.agent)?.icon ?? 'robot');
      return item;
    }
    const s = this.source.byFile(node.file);
    if (!s) return new vscode.TreeItem(node.file);
    const hasChildren = this.getChildren(node).length > 0;
    const item = new vscode.TreeItem(rowTitle(s), hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = `session:${s.file}`;
    item.description = sessionDescription(s, this.now());
    item.tooltip = sessionTooltip(s);
    item.contextValue = sessionContextValue(s);
    item.iconPath = new vscode.ThemeIcon(
      s.error
        ? 'warning'
        : s.file === this.followed()
          ? 'pulse'
          : s.relation === 'compacted'
            ? 'fold'
            : s.relation === 'subagent'
              ? 'hubot'
              : 'comment-discussion',
    );
    item.accessibilityInformation = { label: `${agentName(s.agent)}: ${sessionTitle(s)}, ${item.description}` };
    return item;
  }

  /** Who is under whom, computed once per list (a list of hundreds of sessions is drawn often). */
  private index(): TreeIndex {
    const list = this.source.sessions;
    if (this.indexed?.list === list) return this.indexed;
    const byId = new Map<string, AgentSession[]>();
    for (const s of list) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
    const index: TreeIndex = { list, agents: [], topLevel: new Map(), children: new Map(), parents: new Map() };
    for (const s of list) {
      if (!SessionsTree.listed(s)) continue;
      const parent = s.parent ? parentOf(s, byId.get(s.parent) ?? []) : undefined;
      if (parent) {
        index.parents.set(s.file, parent);
        index.children.set(parent.file, [...(index.children.get(parent.file) ?? []), s]);
        continue;
      }
      if (!index.agents.includes(s.agent)) index.agents.push(s.agent);
      index.topLevel.set(s.agent, [...(index.topLevel.get(s.agent) ?? []), s]);
    }
    this.indexed = index;
    return index;
  }

  private agentNode(agent: AgentId): SessionsNode {
    let n = this.agentNodes.get(agent);
    if (!n) this.agentNodes.set(agent, (n = { kind: 'agent', agent }));
    return n;
  }

  private sessionNode(file: string): SessionsNode {
    let n = this.sessionNodes.get(file);
    if (!n) this.sessionNodes.set(file, (n = { kind: 'session', file }));
    return n;
  }
}
