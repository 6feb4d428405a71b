// 比事实的差异行（fact-rows.ts）认样子时用的小函数：一条事实从 Pi 的样子换成课程的样子，几条依次换，
// 消息行去掉角色，工具结果、路径开头的根、包里的东西对齐；再加上按 id 找机制剧本。

import { adjustFact, adjustTrace, describeEntry, type Observation, type FidelityTrace } from "../compare.ts";
import { fillTemplate, MECHANISM_SCENARIOS } from "../mechanisms.ts";

/** 一个机制剧本两边的观察。 */
export type ObservationPair = { pi: Observation; mini: Observation };

/** 两组行逐行相同。 */
export const sameLines = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** 一条事实：Pi 是 piLines、课程是 miniLines 时，课程一边换成 Pi 的（只认这两种样子）。 */
export const swapFact = (name: string, piLines: readonly string[], miniLines: readonly string[]) => (pair: ObservationPair) =>
  adjustFact(pair.pi, pair.mini, name, (p, m) => (sameLines(p, piLines) && sameLines(m, miniLines) ? [p, [...p]] : undefined));

/** 一个机制差异要改好几条事实时，依次改；其中任何一条不是它描述的样子，整行都不适用。 */
export const inOrder =
  (...steps: ((pair: ObservationPair) => ObservationPair | undefined)[]) =>
  (pi: Observation, mini: Observation): ObservationPair | undefined => {
    let pair: ObservationPair | undefined = { pi, mini };
    for (const step of steps) {
      pair = pair === undefined ? undefined : step(pair);
    }
    return pair;
  };

/** 监听者或 JSON 流里的消息行：Pi 的带角色 `message[user] "…"`，课程的不带 `message "…"`。 */
const ROLE_LINE = /^(.*)message\[(system|user|assistant|toolResult)\] (".*")$/s;

/**
 * Pi 的消息行去掉系统消息和用户消息，其余去掉角色，剩下的应当和课程的逐行相同（之后照常比较）。
 * 只认 Pi 的每一行都带角色、课程的一行都不带的样子。
 */
export const dropRoles = (name: string) => (pair: ObservationPair) =>
  adjustFact(pair.pi, pair.mini, name, (p, m) => {
    const messages = p.filter((line) => line.includes("message"));
    if (messages.length === 0 || !messages.every((line) => ROLE_LINE.test(line)) || m.some((line) => ROLE_LINE.test(line))) return undefined;
    const kept = p.flatMap((line) => {
      const match = ROLE_LINE.exec(line);
      if (match === null) return [line];
      return match[2] === "system" || match[2] === "user" ? [] : [`${match[1]}message ${match[3]}`];
    });
    return [kept, m];
  });

/** 两边同一位置的工具结果，Pi 的文字是 piText、课程的是 miniText 时，课程一边换成 Pi 的。 */
export const resultText = (name: string, piText: string, miniText: string) => (pair: ObservationPair) =>
  adjustTrace(pair.pi, pair.mini, name, (p, m) => {
    const i = m.findIndex((e) => e.role === "toolResult" && e.text === miniText);
    const j = p.findIndex((e) => e.role === "toolResult" && e.text === piText);
    if (i < 0 || j < 0) return undefined;
    const out: FidelityTrace = [...m];
    out[i] = { ...p[j], at: m[i].at };
    return [p, out];
  });

/** 课程的路径比 Pi 多了开头的根（F14）：去掉它。 */
export const dropLeadingRoot = (name: string) => (pair: ObservationPair) =>
  adjustTrace(pair.pi, pair.mini, name, (p, m) => {
    const root = pair.mini.facts["全部节点（按追加顺序）"]?.[0];
    if (m.length !== p.length + 1 || root === undefined || `#0 ${describeEntry(m[0])}` !== root || m[0].role !== "user") return undefined;
    return [p, m.slice(1)];
  });

/** 包里有的东西：Pi 一边多出来的工具、命令、技能正好是这个包的，课程一边一样都没有。 */
export const packageParts = (pkgTools: readonly string[], pkgCommands: readonly [string, string][], pkgSkills: readonly string[]) => (pair: ObservationPair) =>
  inOrder(
    (pair) =>
      adjustFact(pair.pi, pair.mini, "模型能用的工具", (p, m) => {
        const extra = p.filter((t) => !m.includes(t));
        return sameLines(extra, [...pkgTools].sort()) && m.every((t) => p.includes(t)) ? [p, [...p]] : undefined;
      }),
    (pair) =>
      adjustFact(pair.pi, pair.mini, "命令", (p, m) => {
        const ok = pkgCommands.every(([name, reply]) => p.includes(`${name} → ${reply}`) && m.includes(`${name} → 没有运行任何命令`));
        return ok ? [p, p.map((line, i) => (pkgCommands.some(([name]) => line.startsWith(`${name} → `)) ? line : m[i]))] : undefined;
      }),
    (pair) =>
      adjustFact(pair.pi, pair.mini, "技能", (p, m) => {
        const ok = pkgSkills.every((n) => p.includes(`${n}：只有索引（名字和说明）`) && m.includes(`${n}：不在提示里`));
        return ok ? [p, m.map((line) => (pkgSkills.some((n) => line === `${n}：不在提示里`) ? `${line.slice(0, line.indexOf("："))}：只有索引（名字和说明）` : line))] : undefined;
      }),
  )(pair.pi, pair.mini);

/** 按 id 找机制剧本；找不到就抛错（表写错了）。 */
export const mechanismScenario = (id: string) => {
  const found = MECHANISM_SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new Error(`no mechanism scenario ${id}`);
  return found;
};
/** 包的剧本里的那个包。 */
export const pkgOf = (id: string) => {
  const s = mechanismScenario(id);
  if (s.mechanism !== "s12") throw new Error(`${id} is not a package scenario`);
  return s.pkg;
};
/** ext-name-clash 里第二个扩展登记的 read 读 README.md 时回的文字。 */
export const copycatRead = (() => {
  const s = mechanismScenario("ext-name-clash");
  const tool = s.mechanism === "s09" ? s.extensions[1]?.tools.find((t) => t.name === "read") : undefined;
  if (tool === undefined) throw new Error("ext-name-clash has no second read");
  return fillTemplate(tool.template, { path: "README.md" });
})();
