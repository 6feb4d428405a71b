// 从两边各自跑出的原始结果算出「观察」（compare.ts 的 Observation）。两边用同一组函数，事实的名字和写法就一定相同，
// 比出来的不同只可能来自两边的行为。本文件不引用 Pi，也不引用课程代码。

import { join } from "node:path";
import { describeEntry, type Facts, type Observation, type FidelityTrace } from "./compare.ts";
import type { PackageSpec, ProjectFiles } from "./mechanisms.ts";

/** 一边根本没有这个机制时，事实里写这一句（差异表的行认它）。 */
export const ABSENT = "（课程没有这个机制）";

// ── s07：会话树 ───────────────────────────────────────────
/**
 * 一棵树的样子：全部节点（按追加顺序，归一成消息）、每个节点的父节点（追加顺序里的位置，null 是根）、叶子、
 * 从根到叶子的路径、这条路径发给模型时的样子；missing 是换到不存在的 id 时发生了什么。
 */
export type TreeState = {
  entries: FidelityTrace;
  parents: (number | null)[];
  leaf: number | null;
  path: FidelityTrace;
  sent: FidelityTrace;
  missing?: "报错，叶子没动" | "报错，但叶子动了" | "没报错";
};

export function treeObservation(s: TreeState): Observation {
  const facts: Facts = {
    "全部节点（按追加顺序）": s.entries.map((e, i) => `#${i} ${describeEntry(e)}`),
    父节点: s.parents.map((p, i) => `#${i} ← ${p === null ? "根" : `#${p}`}`),
    叶子: [s.leaf === null ? "（没有）" : `#${s.leaf}`],
  };
  if (s.missing !== undefined) facts["换到不存在的节点"] = [s.missing];
  return {
    facts,
    traces: {
      当前路径: { on: "history", pairing: false, trace: s.path },
      发给模型的消息: { on: "requests", pairing: false, trace: s.sent },
    },
  };
}

// ── s08、s11、s12：系统提示里有什么 ───────────────────────
/** 剧本里已知的资料原文：拿它们去系统提示里找，看进没进、在哪、是全文还是索引。 */
export type KnownResources = {
  agents: { label: string; text: string }[];
  skills: { name: string; description: string; body: string; file: string }[];
  append?: string;
};

/** 剧本写的 SKILL.md（mechanisms.ts 的 skillFile）拆回名字、说明、正文；不是这个样子就是 undefined。 */
export function parseSkillFile(content: string): { name: string; description: string; body: string } | undefined {
  const match = /^---\nname: (.+)\ndescription: (.+)\n---\n([\s\S]*)$/.exec(content);
  return match === null ? undefined : { name: match[1], description: match[2], body: match[3].trim() };
}

/** 按剧本的文件认出资料：任意目录下的 AGENTS.md、skills/<名字>/SKILL.md、.pi/APPEND_SYSTEM.md。dir 是剧本目录。 */
export function knownResources(dir: string, files: ProjectFiles): KnownResources {
  const known: KnownResources = { agents: [], skills: [] };
  for (const [path, content] of Object.entries(files)) {
    if (typeof content !== "string") continue;
    if (path === "AGENTS.md" || path.endsWith("/AGENTS.md")) known.agents.push({ label: path, text: content.trim() });
    const parsed = parseSkillFile(content);
    if (/(?:^|\/)skills\/[^/]+\/SKILL\.md$/.test(path) && parsed !== undefined) known.skills.push({ ...parsed, file: join(dir, path) });
    if (path.endsWith(".pi/APPEND_SYSTEM.md")) known.append = content.trim();
  }
  return known;
}

/** 包里的技能（Pi 一边写在 <包目录>/skills/<名字>/SKILL.md）。 */
export const packageResources = (pkg: PackageSpec, pkgDir: string): KnownResources => ({
  agents: [],
  skills: Object.entries(pkg.skills).map(([name, s]) => ({ name, ...s, file: join(pkgDir, "skills", name, "SKILL.md") })),
});

export type PromptPart = "项目说明" | "技能" | "追加的话" | "各部分的先后" | "技能条目带文件位置" | "工作目录";

/**
 * 在一份系统提示里认资料，只看原文在不在、在哪，不看标题和标签怎么写：
 * 项目说明按出现位置排；技能是全文、只有索引（名字和说明）还是不在；技能条目里有没有文件位置；追加的话在不在；
 * 三类资料的先后；工作目录写没写进提示。parts 选要哪几条。
 */
export function promptFacts(prompt: string, known: KnownResources, parts: readonly PromptPart[], cwd: string): Facts {
  const facts: Facts = {};
  const at = (text: string): number => prompt.indexOf(text);
  const present = known.agents.filter((a) => at(a.text) >= 0).sort((a, b) => at(a.text) - at(b.text));
  const indexed = known.skills.filter((s) => at(s.description) >= 0 && at(s.name) >= 0);
  if (parts.includes("项目说明")) facts["进了提示的项目说明（按位置）"] = present.map((a) => a.label);
  if (parts.includes("技能")) {
    facts["技能"] = [...known.skills]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => `${s.name}：${at(s.body) >= 0 ? "全文" : indexed.includes(s) ? "只有索引（名字和说明）" : "不在提示里"}`);
  }
  if (parts.includes("技能条目带文件位置")) {
    facts["技能条目带文件位置"] = indexed.map((s) => `${s.name}：${at(s.file) >= 0 ? "带" : "不带"}`).sort();
  }
  if (parts.includes("追加的话") && known.append !== undefined) facts["追加的话"] = [at(known.append) >= 0 ? "在提示里" : "不在提示里"];
  if (parts.includes("各部分的先后")) {
    const first = (texts: string[]): number => Math.min(...texts.map(at).filter((i) => i >= 0));
    const positions: [string, number][] = [
      ["项目说明", first(present.map((a) => a.text))],
      ["技能索引", first(indexed.map((s) => s.description))],
      ["追加的话", known.append === undefined ? Infinity : first([known.append])],
    ];
    facts["各部分的先后"] = positions.filter(([, i]) => Number.isFinite(i)).sort((a, b) => a[1] - b[1]).map(([name]) => name);
  }
  if (parts.includes("工作目录")) facts["工作目录写在提示里"] = [at(cwd) >= 0 ? "是" : "否"];
  return facts;
}

// ── s09、s12：工具、命令、错误 ────────────────────────────
/** 命令跑出来的样子：`名字 → 回复`；没有这个命令（或者它没跑起来）时 `名字 → 没有运行任何命令`。 */
export const commandLine = (name: string, reply: string | undefined): string => `${name} → ${reply ?? "没有运行任何命令"}`;

/** 监听者记下的一个事件：message 事件带文字（Pi 还带角色），结束事件就是 done。 */
export const messageEventLine = (text: string, role?: string): string => `message${role === undefined ? "" : `[${role}]`} ${JSON.stringify(text)}`;

// ── s10：按行读输出 ───────────────────────────────────────
/** 输出里有没有原样的 U+2028 / U+2029：按这两个字符也切行的读法（比如 Node 的 readline）会在这里把一行切断。 */
export const rawSeparators = (text: string): string => (/[\u2028\u2029]/.test(text) ? "有" : "没有");

/** 按行解析出的事件；解析不了的行跳过（「每行都能按 JSON 解析」那条事实会报出来）。 */
export const jsonEvents = (lines: readonly string[]): unknown[] =>
  lines.flatMap((line) => {
    try {
      const event: unknown = JSON.parse(line);
      return typeof event === "object" && event !== null ? [event] : [];
    } catch {
      return [];
    }
  });

/** 每一行都能按 JSON 解析吗。 */
export function parsesAsJson(lines: readonly string[]): string {
  try {
    for (const line of lines) JSON.parse(line);
    return "是";
  } catch {
    return "否";
  }
}
