// package.json 的脚本按读者分组（tests/house.test.ts 核对）：先是学习者的（每节的演示、练习、检查、提示、差异、真实模型、
// 网页阅读器、毕业），再是维护者的（测试、生成、文档检查、计时、与 Pi 的对照），组内按下面两张表的先后。
// 学习者的脚本名不给别的脚本当前缀：`check` 是学习者查练习的，写 README 的人查文档用 `docs:check`，两个名字不会在补全里挨着。
// `npm run gen` 跑每个便宜的生成器，不跑的几个由根 README「给维护者」一节说明为什么（genProblems）。
import type { ListItem } from "mdast";
import { toString } from "mdast-util-to-string";
import { findSection, walk } from "../markdown.ts";

/** 一组脚本：名字写成 `test`（就这一个）、`test:*`（test: 开头的每一个）或 `sNN`（s01、s02……）。 */
export type ScriptGroup = { audience: "学习者" | "维护者"; names: readonly string[] };

export const SCRIPT_GROUPS: readonly ScriptGroup[] = [
  { audience: "学习者", names: ["sNN", "start", "practice", "check", "hint", "diff", "live", "site", "site:serve", "graduate"] },
  { audience: "维护者", names: ["test", "test:*", "gen", "gen:*", "docs:*", "bench", "bench:*", "fidelity"] },
];

const matches = (pattern: string, name: string): boolean =>
  pattern === "sNN" ? /^s\d\d$/.test(name) : pattern.endsWith(":*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;

/** 脚本在两张表里排第几（学习者的在前）；哪一组都不属于的是 undefined。 */
function rank(name: string): number | undefined {
  let at = 0;
  for (const group of SCRIPT_GROUPS) {
    for (const pattern of group.names) {
      if (matches(pattern, name)) return at;
      at++;
    }
  }
  return undefined;
}

/** 脚本的分组和先后哪里不对，一处一行；对了就是空数组。 */
export function scriptGroupProblems(scripts: Record<string, string>): string[] {
  const out: string[] = [];
  const learner = SCRIPT_GROUPS[0].names;
  let last = -1;
  let lastName = "";
  for (const name of Object.keys(scripts)) {
    const prefix = name.split(":")[0];
    if (name.includes(":") && learner.includes(prefix) && !learner.includes(name)) {
      out.push(`package.json scripts: "${name}" starts with the learner's "${prefix}:"; give it a maintainer's name (docs:*, test:*, gen:*, bench:*)`);
    }
    const at = rank(name);
    if (at === undefined) {
      out.push(`package.json scripts: "${name}" is in no group of tooling/repo/npm-scripts.ts's SCRIPT_GROUPS`);
      continue;
    }
    if (at < last) out.push(`package.json scripts: "${name}" comes after "${lastName}"; the order is ${SCRIPT_GROUPS.flatMap((g) => g.names).join(", ")}`);
    else [last, lastName] = [at, name];
  }
  return out;
}

/** `npm run gen` 依次跑的 gen:* 脚本（它写成 `npm run gen:a && npm run gen:b …`）。 */
export const genSteps = (scripts: Record<string, string>): string[] => [...(scripts.gen ?? "").matchAll(/npm run (gen:[\w-]+)/g)].map((m) => m[1]);

/** 根 README 里说「不在 `npm run gen` 里」的那一节。 */
export const MAINTAINER_SECTION = "给维护者";

/**
 * `npm run gen` 跑的是除了 README 写明的几个之外的每个 gen:*：README「给维护者」一节有一个列表项，开头一段说「不在 `npm run gen` 里」，
 * 它（连同下面的子项）点到的 `npm run gen:*` 恰好是 gen 不跑的那几个；gen 跑的每一步都是一个 gen:* 脚本，不重复。
 */
export function genProblems(scripts: Record<string, string>, readme: string): string[] {
  const out: string[] = [];
  const steps = genSteps(scripts);
  const generators = Object.keys(scripts).filter((name) => name.startsWith("gen:"));
  for (const step of steps) if (!generators.includes(step)) out.push(`package.json scripts: gen runs ${step}, which is not a script`);
  if (new Set(steps).size !== steps.length) out.push(`package.json scripts: gen runs a step twice (${steps.join(", ")})`);
  const left = generators.filter((name) => !steps.includes(name));
  const items: ListItem[] = [];
  walk(findSection(readme, MAINTAINER_SECTION)?.nodes ?? [], (n) => {
    if (n.type === "listItem" && n.children[0]?.type === "paragraph" && toString(n.children[0]).includes("不在 npm run gen 里")) items.push(n);
  });
  if (items.length !== 1) return [...out, `README.md ${MAINTAINER_SECTION}: want one list item that says which generators are 不在 \`npm run gen\` 里, found ${items.length}`];
  const named = new Set<string>();
  walk(items, (n) => {
    const m = n.type === "inlineCode" ? /^npm run (gen:[\w-]+)/.exec(n.value) : null;
    if (m !== null) named.add(m[1]);
  });
  for (const name of left) if (!named.has(name)) out.push(`README.md ${MAINTAINER_SECTION}: npm run gen does not run ${name}, and the README does not say why`);
  for (const name of named) if (!left.includes(name)) out.push(`README.md ${MAINTAINER_SECTION}: says npm run gen does not run ${name}, but ${steps.includes(name) ? "it does" : "there is no such script"}`);
  return out;
}
