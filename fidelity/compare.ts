// 把两边的消息归一成同一种轨迹，再逐条比较。不引用 Pi：根目录的 `npm test` 用手写的轨迹测它能不能报错。
// 比两种轨迹：跑完一轮后存下的历史，和每次请求时模型看到的消息（第 k 次对第 k 次）。
//
// 轨迹里每条消息只留对照需要的东西：
//   user        → 文字
//   assistant   → stopReason、文字、这次回答要的调用 id（按顺序）、出错说明（stopReason 为 error 时）
//   toolResult  → toolCallId、是不是出错、文字（出错时就是错误说明）
//   system      → 只记有这么一条（只有 Pi 有）
// 同一件事的两种写法在这里对齐，不算差异（见 DIFFERENCES.md「表示法对应」）：
//   Pi 的 toolResult.isError 字段      ↔ 课程结果文字的 "error: " 前缀（D18）
//   Pi 助手消息的 errorMessage 字段    ↔ 课程助手消息最后一行 "error: …"（D6）
//   Pi 助手消息里的 toolCall 块        ↔ 课程 provider 在这次回答里发出的 tool_call 事件（课程的消息里不存调用；
//                                        只在历史里这样对齐——请求里模型看不到自己要过的调用，那是差异表的 F13）

import { type DiffLine, diffLines } from "../scripts/linediff.ts";

export type Entry = (
  | { role: "system" }
  | { role: "user"; text: string }
  | { role: "assistant"; stopReason: string; text: string; calls: string[]; errorText?: string }
  | { role: "toolResult"; toolCallId: string; isError: boolean; text: string }
) & {
  /** 在原轨迹里的位置。比较前由 compareTraces 填上，差异表改写后报错时仍指向原来那条；不参与比较。 */
  at?: number;
};

export type Trace = Entry[];

// ── Pi 一侧：按结构写的 Pi 消息形状（和 @earendil-works/pi-ai 的 Message 兼容，但不引用它） ──
export type PiBlock = { type: string; text?: string; id?: string };
export type PiMessageLike =
  | { role: "system" }
  | { role: "user"; content: string | PiBlock[] }
  | { role: "assistant"; content: PiBlock[]; stopReason: string; errorMessage?: string }
  | { role: "toolResult"; toolCallId: string; isError: boolean; content: PiBlock[] };

const blockText = (content: string | PiBlock[]): string =>
  typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");

export function normalisePi(messages: readonly PiMessageLike[]): Trace {
  return messages.map((m): Entry => {
    switch (m.role) {
      case "system":
        return { role: "system" };
      case "user":
        return { role: "user", text: blockText(m.content) };
      case "assistant": {
        const entry: Entry = {
          role: "assistant",
          stopReason: m.stopReason,
          text: blockText(m.content),
          calls: m.content.filter((b) => b.type === "toolCall").map((b) => b.id ?? "?"),
        };
        if (m.errorMessage !== undefined && (m.stopReason === "error" || m.stopReason === "aborted")) entry.errorText = m.errorMessage;
        return entry;
      }
      case "toolResult":
        return { role: "toolResult", toolCallId: m.toolCallId, isError: m.isError, text: blockText(m.content) };
    }
  });
}

/** 发给模型的请求里没有 stopReason（课程的 ProviderMessage 不带它，API 也用不上），Pi 这边也不比。 */
export function asRequest(trace: Trace): Trace {
  return trace.map((e) => (e.role === "assistant" ? { role: "assistant", stopReason: "-", text: e.text, calls: e.calls } : e));
}

// ── mini Pi 一侧 ──────────────────────────────────────────
export type MiniMessageLike = { role: "user" | "assistant" | "toolResult"; content: string; stopReason?: string; toolCallId?: string };

const ERROR_PREFIX = "error: ";

/**
 * calls[k] 是第 k 次请求时 provider 发出的调用 id，对应第 k 条助手消息。达到 maxTurns 时追加的那条助手消息
 * 没有对应的请求，它的调用就是空的。
 */
export function normaliseMini(messages: readonly MiniMessageLike[], calls: readonly string[][]): Trace {
  let assistants = 0;
  return messages.map((m): Entry => {
    switch (m.role) {
      case "user":
        return { role: "user", text: m.content };
      case "assistant": {
        const entry: Entry = { role: "assistant", stopReason: m.stopReason ?? "?", text: m.content, calls: [...(calls[assistants++] ?? [])] };
        if (m.stopReason === "error") {
          // D6：已收到的文字在前，最后一行是 "error: <原因>"
          const match = /^(?:([\s\S]*)\n)?error: ([^\n]*)$/.exec(m.content);
          if (match !== null) {
            entry.text = match[1] ?? "";
            entry.errorText = match[2];
          }
        }
        return entry;
      }
      case "toolResult": {
        const isError = m.content.startsWith(ERROR_PREFIX);
        return { role: "toolResult", toolCallId: m.toolCallId ?? "?", isError, text: isError ? m.content.slice(ERROR_PREFIX.length) : m.content };
      }
    }
  });
}

/** 课程的 provider 收到的 ProviderInput.messages：助手消息只有文字，没有调用（§2 ProviderMessage）。 */
export function normaliseMiniRequest(messages: readonly MiniMessageLike[]): Trace {
  return normaliseMini(messages, []).map((e) => (e.role === "assistant" ? { role: "assistant", stopReason: "-", text: e.text, calls: [] } : e));
}

// ── 展示 ──────────────────────────────────────────────────
export function describeEntry(e: Entry | undefined): string {
  if (e === undefined) return "(nothing)";
  switch (e.role) {
    case "system":
      return "system";
    case "user":
      return `user ${JSON.stringify(e.text)}`;
    case "assistant":
      return [
        `assistant[${e.stopReason}] ${JSON.stringify(e.text)}`,
        e.calls.length > 0 ? ` calls=${e.calls.join(",")}` : "",
        e.errorText !== undefined ? ` error=${JSON.stringify(e.errorText)}` : "",
      ].join("");
    case "toolResult":
      return `toolResult ${e.toolCallId} ${e.isError ? "error" : "ok"} ${JSON.stringify(e.text)}`;
  }
}


// ── 配对 ──────────────────────────────────────────────────
/**
 * 一条轨迹自己的 toolCallId 配对：每个结果回答的是它前面那条助手消息要的调用，按调用顺序、各一次；
 * 以 toolUse 收尾的助手消息，每个调用都得有结果。
 */
export function pairingProblems(trace: Trace): string[] {
  const problems: string[] = [];
  let owner: { index: number; stopReason: string; calls: string[] } | undefined;
  let answered: string[] = [];
  const close = (): void => {
    if (owner === undefined || owner.stopReason !== "toolUse") return;
    for (const id of owner.calls) {
      if (!answered.includes(id)) problems.push(`#${owner.index}: call ${id} has no toolResult`);
    }
  };
  trace.forEach((e, i) => {
    if (e.role === "toolResult") {
      if (owner === undefined || !owner.calls.includes(e.toolCallId)) {
        problems.push(`#${i}: toolResult ${e.toolCallId} answers no call of the assistant before it`);
      } else if (answered.includes(e.toolCallId)) {
        problems.push(`#${i}: toolResult ${e.toolCallId} answers a call that already has a result`);
      } else {
        const expected = owner.calls.find((id) => !answered.includes(id));
        if (expected !== e.toolCallId) problems.push(`#${i}: toolResult ${e.toolCallId} is out of call order (expected ${expected})`);
        answered.push(e.toolCallId);
      }
      return;
    }
    close();
    owner = e.role === "assistant" ? { index: i, stopReason: e.stopReason, calls: e.calls } : undefined;
    answered = [];
  });
  close();
  return problems;
}

// ── 差异表的形状 ──────────────────────────────────────────
export type Reconciled = { pi: Trace; mini: Trace };

/**
 * 一条「已列出的差异」：哪些剧本会出现它、两边各是什么样、为什么故意不同。
 * reconcile 把这一处差异从两条轨迹里消掉（只认它自己描述的那种样子）；不适用就返回 undefined。
 */
export type Difference = {
  id: string;
  /** deliberate：故意的，理由写在 reason；pending：还没决定修课程还是写成决策。 */
  status: "deliberate" | "pending";
  /** 这处差异出现在哪：跑完后的历史、每次发给模型的请求，或者两处都有。 */
  on: "history" | "requests" | "both";
  scenarios: string[];
  pi: string;
  mini: string;
  reason: string;
  reconcile(pi: Trace, mini: Trace): Reconciled | undefined;
};

/** 逐对改写两条轨迹对齐位置上的消息；一处都没改就返回 undefined。 */
export function rewritePairs(pi: Trace, mini: Trace, f: (p: Entry, m: Entry) => [Entry, Entry] | undefined): Reconciled | undefined {
  const outPi = [...pi];
  const outMini = [...mini];
  let changed = false;
  for (let i = 0; i < Math.min(pi.length, mini.length); i++) {
    const r = f(pi[i], mini[i]);
    if (r !== undefined) {
      [outPi[i], outMini[i]] = r;
      changed = true;
    }
  }
  return changed ? { pi: outPi, mini: outMini } : undefined;
}

// ── 比较 ──────────────────────────────────────────────────
export type Verdict = {
  /** 这次比较用到的差异表行，按表的顺序。 */
  used: string[];
  /** 消不掉的不同：每条是一行能读懂的话。空 = 一致（或只有已列出的差异）。 */
  problems: string[];
};

/**
 * 同一个剧本跑完后的两条历史：先各自查配对，再按差异表消掉已列出的差异，剩下的每一处不同都是问题。
 * on 是这次比的是哪一种轨迹：只有 on 相符的行参与；请求不查配对（请求里能看到什么调用，正是 F13 说的事）。
 */
export function compareTraces(scenario: string, pi: Trace, mini: Trace, differences: readonly Difference[], on: "history" | "requests" = "history"): Verdict {
  const problems =
    on === "history" ? [...pairingProblems(pi).map((p) => `pi pairing ${p}`), ...pairingProblems(mini).map((p) => `mini pairing ${p}`)] : [];
  const used: string[] = [];
  const tag = (t: Trace): Trace => t.map((e, i) => ({ ...e, at: i }));
  let current: Reconciled = { pi: tag(pi), mini: tag(mini) };
  for (const row of differences) {
    if (!row.scenarios.includes(scenario) || (row.on !== "both" && row.on !== on)) continue;
    const next = row.reconcile(current.pi, current.mini);
    if (next !== undefined) {
      current = next;
      used.push(row.id);
    }
  }
  problems.push(...traceDifferences(current.pi, current.mini));
  return { used, problems };
}

/**
 * 每次请求模型时，两边的模型各看到了什么：第 k 次请求和第 k 次请求比。请求次数不同（F10、F12）由历史的比较负责，
 * 这里只比两边都有的那几次。
 */
export function compareRequests(scenario: string, pi: readonly Trace[], mini: readonly Trace[], differences: readonly Difference[]): Verdict {
  const used = new Set<string>();
  const problems: string[] = [];
  for (let k = 0; k < Math.min(pi.length, mini.length); k++) {
    const verdict = compareTraces(scenario, pi[k], mini[k], differences, "requests");
    verdict.used.forEach((id) => used.add(id));
    problems.push(...verdict.problems.map((p) => `request ${k + 1}: ${p}`));
  }
  return { used: differences.map((d) => d.id).filter((id) => used.has(id)), problems };
}

/**
 * 两条轨迹逐条对齐（最长公共子序列，和 `npm run diff` 用的是同一个 diffLines），每处不同一行：
 * 同一位置两边不同 → `pi #i … ≠ mini #j …`；只有一边有 → `… is missing from mini` / `… is not in pi`。
 * #i、#j 是消息在原轨迹里的位置（Entry.at），没有就用在这条轨迹里的位置。
 */
export function traceDifferences(pi: Trace, mini: Trace): string[] {
  const as = (kind: "add" | "del", t: Trace): DiffLine[] => t.map((e, i) => ({ kind, text: describeEntry(e), line: i + 1 }));
  // diffLines 收的是文本，空轨迹会被当成一个空行，所以一边为空时直接列出另一边
  const diff =
    pi.length === 0 || mini.length === 0
      ? [...as("del", pi), ...as("add", mini)]
      : diffLines(pi.map(describeEntry).join("\n"), mini.map(describeEntry).join("\n"));
  const out: string[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const at = (t: Trace, d: DiffLine): number => t[d.line - 1]?.at ?? d.line - 1;
  const flush = (): void => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const [d, a] = [dels[k], adds[k]];
      if (d !== undefined && a !== undefined) out.push(`pi #${at(pi, d)} ${d.text} ≠ mini #${at(mini, a)} ${a.text}`);
      else if (d !== undefined) out.push(`pi #${at(pi, d)} ${d.text} is missing from mini`);
      else if (a !== undefined) out.push(`mini #${at(mini, a)} ${a.text} is not in pi`);
    }
    [dels, adds] = [[], []];
  };
  for (const d of diff) {
    if (d.kind === "same") flush();
    else (d.kind === "del" ? dels : adds).push(d);
  }
  flush();
  return out;
}

/**
 * 过期的行：表里写了某个剧本会用到它，可那个剧本在哪一课都没用到。usage 是「行 id → 用到它的剧本」。
 * 也检查表里提到的剧本是否存在、行 id 是否重复。
 */
export function staleRows(differences: readonly Difference[], usage: ReadonlyMap<string, ReadonlySet<string>>, scenarioIds: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const row of differences) {
    if (seen.has(row.id)) out.push(`${row.id} appears twice in the differences table`);
    seen.add(row.id);
    if (row.scenarios.length === 0) out.push(`${row.id} is stale: it lists no scenario`);
    for (const s of row.scenarios) {
      if (!scenarioIds.includes(s)) out.push(`${row.id} lists scenario "${s}", which does not exist`);
      else if (!usage.get(row.id)?.has(s)) out.push(`${row.id} is stale: scenario "${s}" never needed it`);
    }
  }
  return out;
}
