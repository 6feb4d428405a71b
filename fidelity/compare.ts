// 把两边的消息归一成同一种轨迹，再逐条比较。不引用 Pi：根目录的 `npm test` 用手写的轨迹测它能不能报错。
// 循环剧本比两种轨迹：跑完一轮后存下的历史，和每次请求时模型看到的消息（第 k 次对第 k 次）。
// 机制剧本（s07–s12）比「观察」：几条事实（每条几行文字）加几条轨迹，见文件末尾的 compareObservations。
//
// 轨迹里每条消息只留对照需要的东西：
//   user        → 文字
//   assistant   → stopReason、文字、这次回答要的调用 id（按顺序）、出错说明（stopReason 为 error 时）
//   toolResult  → toolCallId、是不是出错、文字（出错时就是错误说明）
//   system      → 只记有这么一条（只有 Pi 有）
// 调用方的剧本（scenarios.ts 的 CallerPlan）另有一条「调用方」轨迹，每条是 role 为 caller 的一行：哪一步、看到什么。
// 同一件事的两种写法在这里对齐，不算差异（见 DIFFERENCES.md「表示法对应」）：
//   Pi 的 toolResult.isError 字段      ↔ 课程结果文字的 "error: " 前缀（D18）
//   Pi 助手消息的 errorMessage 字段    ↔ 课程助手消息最后一行 "error: …"（D6）
//   Pi 助手消息里的 toolCall 块        ↔ 课程 provider 在这次回答里发出的 tool_call 事件（课程的消息里不存调用；
//                                        只在历史里这样对齐——请求里模型看不到自己要过的调用，那是差异表的 F13）

import { type DiffLine, diffLines } from "../tooling/linediff.ts";
import type { Mechanism } from "./mechanisms.ts";

export type Entry = (
  | { role: "system" }
  | { role: "user"; text: string }
  | { role: "assistant"; stopReason: string; text: string; calls: string[]; errorText?: string }
  | { role: "toolResult"; toolCallId: string; isError: boolean; text: string }
  | { role: "caller"; text: string }
) & {
  /** 在原轨迹里的位置。比较前由 compareTraces 填上，差异表改写后报错时仍指向原来那条；不参与比较。 */
  at?: number;
};

/** 归一后的一条轨迹（Pi 和 mini 两边同一种写法）。不是黄金轨迹（tooling/scenarios/shape.ts 的 Trace，记的是一课自己跑出的一切）。 */
export type FidelityTrace = Entry[];

// ── Pi 一侧：按结构写的 Pi 消息形状（和 @earendil-works/pi-ai 的 Message 兼容，但不引用它） ──
export type PiBlock = { type: string; text?: string; id?: string };
export type PiMessageLike =
  | { role: "system" }
  | { role: "user"; content: string | PiBlock[] }
  | { role: "assistant"; content: PiBlock[]; stopReason: string; errorMessage?: string }
  | { role: "toolResult"; toolCallId: string; isError: boolean; content: PiBlock[] };

const blockText = (content: string | PiBlock[]): string =>
  typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");

export function normalisePi(messages: readonly PiMessageLike[]): FidelityTrace {
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
export function asRequest(trace: FidelityTrace): FidelityTrace {
  return trace.map((e) => (e.role === "assistant" ? { role: "assistant", stopReason: "-", text: e.text, calls: e.calls } : e));
}

// ── mini Pi 一侧 ──────────────────────────────────────────
export type MiniMessageLike = { role: "user" | "assistant" | "toolResult"; content: string; stopReason?: string; toolCallId?: string };

const ERROR_PREFIX = "error: ";

/**
 * calls[k] 是第 k 次请求时 provider 发出的调用 id，对应第 k 条助手消息。达到 maxTurns 时追加的那条助手消息
 * 没有对应的请求，它的调用就是空的。
 */
export function normaliseMini(messages: readonly MiniMessageLike[], calls: readonly string[][]): FidelityTrace {
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
export function normaliseMiniRequest(messages: readonly MiniMessageLike[]): FidelityTrace {
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
    case "caller":
      return `caller ${e.text}`;
  }
}


// ── 配对 ──────────────────────────────────────────────────
/**
 * 一条轨迹自己的 toolCallId 配对：每个结果回答的是它前面那条助手消息要的调用，按调用顺序、各一次；
 * 以 toolUse 收尾的助手消息，每个调用都得有结果。
 */
export function pairingProblems(trace: FidelityTrace): string[] {
  const problems: string[] = [];
  let owner: { index: number; stopReason: string; calls: string[] } | undefined;
  let answered: string[] = [];
  const close = (): void => {
    if (owner === undefined || owner.stopReason !== "toolUse") return;
    for (const id of owner.calls) {
      if (!answered.includes(id)) problems.push(`#${owner.index}：调用 ${id} 没有结果`);
    }
  };
  trace.forEach((e, i) => {
    if (e.role === "toolResult") {
      if (owner === undefined || !owner.calls.includes(e.toolCallId)) {
        problems.push(`#${i}：结果 ${e.toolCallId} 不回答它前面那条助手消息要的任何调用`);
      } else if (answered.includes(e.toolCallId)) {
        problems.push(`#${i}：结果 ${e.toolCallId} 回答的调用已经有结果了`);
      } else {
        const expected = owner.calls.find((id) => !answered.includes(id));
        if (expected !== e.toolCallId) problems.push(`#${i}：结果 ${e.toolCallId} 顺序不对（该轮到 ${expected}）`);
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
export type Reconciled = { pi: FidelityTrace; mini: FidelityTrace };

/**
 * 一条「已列出的差异」：哪些剧本会出现它、两边各是什么样、为什么故意不同。
 * reconcile 把这一处差异从两条轨迹里消掉（只认它自己描述的那种样子）；不适用就返回 undefined。
 * 和黄金轨迹的差异表（tooling/scenarios/differences.ts 的 GoldenDifference：后面的课和前面的课哪里可以不同）不是一回事。
 */
export type FidelityDifference = {
  id: string;
  /** deliberate：故意的，理由写在 reason；pending：还没决定修课程还是写成决策。 */
  status: "deliberate" | "pending";
  /** 这处差异出现在哪：跑完后的历史、每次发给模型的请求、两处都有（both），或者调用方看到的（caller，只比它自己）。 */
  on: "history" | "requests" | "both" | "caller";
  scenarios: string[];
  pi: string;
  mini: string;
  reason: string;
  reconcile(pi: FidelityTrace, mini: FidelityTrace): Reconciled | undefined;
};

/** 逐对改写两条轨迹对齐位置上的消息；一处都没改就返回 undefined。 */
export function rewritePairs(pi: FidelityTrace, mini: FidelityTrace, f: (p: Entry, m: Entry) => [Entry, Entry] | undefined): Reconciled | undefined {
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
 * 同一个剧本的两条轨迹：先各自查配对（pairing，默认只查历史），再按差异表消掉已列出的差异，剩下的每一处不同都是问题。
 * on 是这次比的是哪一种轨迹：只有 on 相符的行参与（both 的行参与历史和请求，不参与调用方）；
 * 请求不查配对（请求里能看到什么调用，正是 F13 说的事），调用方的轨迹里没有调用，也不查。
 */
export function compareTraces(
  scenario: string,
  pi: FidelityTrace,
  mini: FidelityTrace,
  differences: readonly FidelityDifference[],
  on: "history" | "requests" | "caller" = "history",
  pairing: boolean = on === "history",
): Verdict {
  const problems = pairing ? [...pairingProblems(pi).map((p) => `pi 配对 ${p}`), ...pairingProblems(mini).map((p) => `mini 配对 ${p}`)] : [];
  const used: string[] = [];
  const tag = (t: FidelityTrace): FidelityTrace => t.map((e, i) => ({ ...e, at: i }));
  let current: Reconciled = { pi: tag(pi), mini: tag(mini) };
  for (const row of differences) {
    if (!row.scenarios.includes(scenario) || (row.on === "both" ? on === "caller" : row.on !== on)) continue;
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
export function compareRequests(scenario: string, pi: readonly FidelityTrace[], mini: readonly FidelityTrace[], differences: readonly FidelityDifference[]): Verdict {
  const used = new Set<string>();
  const problems: string[] = [];
  for (let k = 0; k < Math.min(pi.length, mini.length); k++) {
    const verdict = compareTraces(scenario, pi[k], mini[k], differences, "requests");
    verdict.used.forEach((id) => used.add(id));
    problems.push(...verdict.problems.map((p) => `第 ${k + 1} 次请求：${p}`));
  }
  return { used: differences.map((d) => d.id).filter((id) => used.has(id)), problems };
}

/**
 * 调用方每一步看到了什么（只有调用方的剧本有，scenarios.ts 的 CallerPlan）：两边逐行比，只有 on 为 caller 的行参与，不查配对。
 * 两边都没有就什么都不比；只有一边有，另一边的每一行都是问题。问题前面标上「调用方：」。
 */
export function compareCaller(scenario: string, pi: FidelityTrace | undefined, mini: FidelityTrace | undefined, differences: readonly FidelityDifference[]): Verdict {
  if (pi === undefined && mini === undefined) return { used: [], problems: [] };
  const verdict = compareTraces(scenario, pi ?? [], mini ?? [], differences, "caller", false);
  return { used: verdict.used, problems: verdict.problems.map((p) => `调用方：${p}`) };
}

/**
 * 两串行逐行对齐（最长公共子序列，和 `npm run diff` 用的是同一个 diffLines），每处不同一行：
 * 同一位置两边不同 → `pi … ≠ mini …`；只有一边有 → `pi … 在 mini 里没有` / `mini … 在 pi 里没有`。
 * label(side, i) 给出第 i 行在报告里怎么称呼（默认就是行本身）。
 */
function lineDifferences(pi: readonly string[], mini: readonly string[], label: (side: "pi" | "mini", i: number) => string): string[] {
  // diffLines 收的是文本：行里的换行先转义；空的一边直接列出另一边（空文本会被当成一个空行）
  const flat = (lines: readonly string[]): string => lines.map((l) => l.replace(/\n/g, "\\n")).join("\n");
  const as = (kind: "add" | "del", lines: readonly string[]): DiffLine[] => lines.map((text, i) => ({ kind, text, line: i + 1 }));
  const diff = pi.length === 0 || mini.length === 0 ? [...as("del", pi), ...as("add", mini)] : diffLines(flat(pi), flat(mini));
  const out: string[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = (): void => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const [d, a] = [dels[k], adds[k]];
      if (d !== undefined && a !== undefined) out.push(`pi ${label("pi", d.line - 1)} ≠ mini ${label("mini", a.line - 1)}`);
      else if (d !== undefined) out.push(`pi ${label("pi", d.line - 1)} 在 mini 里没有`);
      else if (a !== undefined) out.push(`mini ${label("mini", a.line - 1)} 在 pi 里没有`);
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
 * 两条轨迹逐条对齐，每处不同一行：`pi #i … ≠ mini #j …`、`pi #i … 在 mini 里没有`、`mini #j … 在 pi 里没有`。
 * #i、#j 是消息在原轨迹里的位置（Entry.at），没有就用在这条轨迹里的位置。
 */
export function traceDifferences(pi: FidelityTrace, mini: FidelityTrace): string[] {
  const sides = { pi, mini };
  return lineDifferences(pi.map(describeEntry), mini.map(describeEntry), (side, i) => `#${sides[side][i]?.at ?? i} ${describeEntry(sides[side][i])}`);
}

/**
 * 过期的行：表里写了某个剧本会用到它，可那个剧本在哪一课都没用到。usage 是「行 id → 用到它的剧本」。
 * 也检查表里提到的剧本是否存在、行 id 是否重复。
 */
export function staleRows(
  differences: readonly { id: string; scenarios: readonly string[] }[],
  usage: ReadonlyMap<string, ReadonlySet<string>>,
  scenarioIds: readonly string[],
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const row of differences) {
    if (seen.has(row.id)) out.push(`${row.id} 在差异表里出现了两次`);
    seen.add(row.id);
    if (row.scenarios.length === 0) out.push(`${row.id} 过期：没写任何剧本`);
    for (const s of row.scenarios) {
      if (!scenarioIds.includes(s)) out.push(`${row.id} 写了剧本「${s}」，可没有这个剧本`);
      else if (!usage.get(row.id)?.has(s)) out.push(`${row.id} 过期：剧本「${s}」用不到它`);
    }
  }
  return out;
}

// ── 机制剧本的观察 ────────────────────────────────────────
/** 事实：名字 → 几行文字。两边同名的事实逐行比较；键的顺序就是打印的顺序。 */
export type Facts = Record<string, string[]>;

/** 一条轨迹形式的观察：on 决定差异表里哪些行（历史 / 请求）参与；pairing 决定查不查配对。 */
export type TraceFact = { on: "history" | "requests"; pairing: boolean; trace: FidelityTrace };

/** 一个机制剧本在一边的全部观察。只有数据，能写成 JSON：Pi 一边在 Node 24 的子进程里算好再交回来。 */
export type Observation = { facts: Facts; traces: Record<string, TraceFact> };

/**
 * 机制剧本的一条已列出差异。和循环的行一样：哪些剧本会出现它、两边各是什么样、为什么。
 * reconcile 在两边的观察上消掉它描述的那一处（只认它自己描述的样子）；不适用就返回 undefined。
 */
export type FactDifference = {
  id: string;
  status: "deliberate" | "pending";
  mechanism: Mechanism;
  scenarios: string[];
  pi: string;
  mini: string;
  reason: string;
  reconcile(pi: Observation, mini: Observation): { pi: Observation; mini: Observation } | undefined;
};

/**
 * 改写两边同名的一条事实：f 拿到两边的行，返回改写后的两边；不适用（或任一边没有这条事实）就返回 undefined。
 * 差异表的行用它来只动自己描述的那条事实。
 */
export function adjustFact(
  pi: Observation,
  mini: Observation,
  name: string,
  f: (pi: string[], mini: string[]) => [string[], string[]] | undefined,
): { pi: Observation; mini: Observation } | undefined {
  const [p, m] = [pi.facts[name], mini.facts[name]];
  if (p === undefined || m === undefined) return undefined;
  const r = f(p, m);
  if (r === undefined) return undefined;
  return { pi: { ...pi, facts: { ...pi.facts, [name]: r[0] } }, mini: { ...mini, facts: { ...mini.facts, [name]: r[1] } } };
}

/** 同上，改写两边同名的一条轨迹。 */
export function adjustTrace(
  pi: Observation,
  mini: Observation,
  name: string,
  f: (pi: FidelityTrace, mini: FidelityTrace) => [FidelityTrace, FidelityTrace] | undefined,
): { pi: Observation; mini: Observation } | undefined {
  const [p, m] = [pi.traces[name], mini.traces[name]];
  if (p === undefined || m === undefined) return undefined;
  const r = f(p.trace, m.trace);
  if (r === undefined) return undefined;
  return {
    pi: { ...pi, traces: { ...pi.traces, [name]: { ...p, trace: r[0] } } },
    mini: { ...mini, traces: { ...mini.traces, [name]: { ...m, trace: r[1] } } },
  };
}

/**
 * 一个机制剧本的两份观察：先按机制的差异表（factRows）消掉已列出的差异，再逐条比：
 * 轨迹交给 compareTraces（循环的差异表 traceRows 照样适用，比如 Pi 历史开头的系统消息 F1），事实逐行比。
 * 一边有、另一边没有的事实或轨迹也是问题。
 */
export function compareObservations(
  scenario: string,
  pi: Observation,
  mini: Observation,
  traceRows: readonly FidelityDifference[],
  factRows: readonly FactDifference[],
): Verdict {
  const used: string[] = [];
  let current = { pi, mini };
  for (const row of factRows) {
    if (!row.scenarios.includes(scenario)) continue;
    const next = row.reconcile(current.pi, current.mini);
    if (next !== undefined) {
      current = next;
      used.push(row.id);
    }
  }
  const problems: string[] = [];
  const names = <T>(a: Record<string, T>, b: Record<string, T>): string[] => [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const name of names(current.pi.traces, current.mini.traces)) {
    const [p, m] = [current.pi.traces[name], current.mini.traces[name]];
    if (p === undefined || m === undefined) {
      problems.push(`「${name}」只有 ${p === undefined ? "mini" : "pi"} 有`);
      continue;
    }
    const verdict = compareTraces(scenario, p.trace, m.trace, traceRows, p.on, p.pairing || m.pairing);
    used.push(...verdict.used);
    problems.push(...verdict.problems.map((x) => `「${name}」${x}`));
  }
  for (const name of names(current.pi.facts, current.mini.facts)) {
    const [p, m] = [current.pi.facts[name], current.mini.facts[name]];
    if (p === undefined || m === undefined) {
      problems.push(`「${name}」只有 ${p === undefined ? "mini" : "pi"} 有`);
      continue;
    }
    problems.push(...lineDifferences(p, m, (side, i) => (side === "pi" ? p : m)[i] ?? "").map((x) => `「${name}」${x}`));
  }
  const order = [...traceRows.map((d) => d.id), ...factRows.map((d) => d.id)];
  return { used: order.filter((id) => used.includes(id)), problems };
}

/** 打印一份观察（--verbose 用）。 */
export function describeObservation(o: Observation): string[] {
  const out: string[] = [];
  for (const [name, t] of Object.entries(o.traces)) {
    out.push(`${name}（轨迹）`);
    t.trace.forEach((e, i) => out.push(`  #${i} ${describeEntry(e)}`));
  }
  for (const [name, lines] of Object.entries(o.facts)) {
    out.push(name);
    for (const line of lines) out.push(`  ${line}`);
  }
  return out;
}
