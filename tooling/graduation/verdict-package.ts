// 练习 3（包）的要求：项目被信任时，包里的 AGENTS.md 和技能 release 进了 Pi 的系统提示（技能只有索引）；不被信任时都不在。
// 没做到时从学习者的 package.json 看出多半是哪儿不对：Pi 的清单只认四类资源；清单一旦列了某一类，别的类就不再去约定的目录找；
// 列的路径包里没有，Pi 悄悄跳过。

import { existsSync } from "node:fs";
import { join } from "node:path";
import { promptLines } from "./differences.ts";
import { SKILL } from "./exercises.ts";
import { fail, loadRequirement, type ManifestRead, pass, type Requirement, type VerdictInput } from "./requirements.ts";
import type { PiRun } from "./runs.ts";

/** Pi 的 pi 键认的四类资源（pi-manifest.ts 的 RESOURCE_FIELDS），和它另外认的几个键。 */
const KINDS = ["extensions", "skills", "prompts", "themes"] as const;
const OTHER_KEYS = new Set(["changelogPath", "image", "video"]);

const AGENTS_IN = "项目被信任时：包里的 AGENTS.md 进了系统提示";
const SKILL_IN = `项目被信任时：技能 ${SKILL.name} 进了系统提示的索引（名字和说明，不是全文）`;
const NOTHING_UNTRUSTED = "项目不被信任时：两样都不在系统提示里";

export function packageRequirements(input: VerdictInput): Requirement[] {
  const [trusted, untrusted] = input.runs;
  const load = loadRequirement(input, "Pi 装包时没报错", false);
  if (trusted === undefined || untrusted === undefined) return [load, fail(AGENTS_IN, "Pi 一侧没跑完两次对话。")];
  return [load, agentsIn(input, trusted), skillIn(input, trusted), nothingUntrusted(untrusted)];
}

/** 清单的样子：列了哪几类、每类列的路径、有没有 Pi 不认的键。 */
type Manifest = { kinds: string[]; entries: Record<string, string[]>; unknown: string[] };

function readManifest(m: ManifestRead | undefined): Manifest | string {
  if (m === undefined) return "包里没有 package.json。";
  if (!m.ok) return `包里的 package.json 读不了：${m.error}`;
  if (typeof m.pi !== "object" || m.pi === null || Array.isArray(m.pi)) return "package.json 里没有 pi 键（或者它不是一个对象）：Pi 只好照约定的目录去找。";
  const pi = m.pi as Record<string, unknown>;
  const entries = Object.fromEntries(KINDS.flatMap((k) => (Array.isArray(pi[k]) ? [[k, (pi[k] as unknown[]).map(String)]] : [])));
  return { kinds: Object.keys(entries), entries, unknown: Object.keys(pi).filter((k) => !(KINDS as readonly string[]).includes(k) && !OTHER_KEYS.has(k)) };
}

/** Pi 不认的键、列了的路径包里没有：这两件 Pi 都不报错，只是悄悄跳过。 */
function quietSkips(manifest: Manifest, target: string, kind: string): string[] {
  const lines = manifest.unknown.map((k) => `清单里的 ${k} 不是 Pi 认的键：pi 键只认 extensions、skills、prompts、themes 四类（readPiManifest），别的悄悄跳过，不报错。`);
  for (const entry of manifest.entries[kind] ?? []) {
    if (!/[*!]/.test(entry) && !existsSync(join(target, entry))) lines.push(`清单的 ${kind} 写着 ${entry}，包里没有它：Pi 悄悄跳过了（差异表 F35），不报错。`);
  }
  return lines;
}

/** 清单没列 kind 时为什么就没装上。 */
function notListed(manifest: Manifest, kind: string, what: string): string | undefined {
  if (manifest.kinds.includes(kind)) return undefined;
  if (manifest.kinds.length === 0) return `清单一类资源都没列，Pi 只好照约定的目录去找（extensions/、skills/……）：${what}。在 pi 键里写明 "${kind}"。`;
  return `清单列了 ${manifest.kinds.join("、")}，没列 ${kind}：清单只要列了任何一类资源，Pi 就只装清单里写的，别的类不再去约定的目录找（hasManifestResourceFields），${what}。`;
}

function agentsIn({ manifest: m, target }: VerdictInput, run: PiRun): Requirement {
  const present = promptLines(run.prompts[0] ?? "")["进了提示的项目说明（按位置）"] ?? [];
  if (present.length > 0) return pass(AGENTS_IN);
  const manifest = readManifest(m);
  if (typeof manifest === "string") return fail(AGENTS_IN, manifest);
  const lines = quietSkips(manifest, target, "extensions");
  const events = run.learner.flatMap((e) => e.events);
  if (run.learner.length === 0) {
    lines.push(notListed(manifest, "extensions", "src/project-notes.ts 没装上") ?? "包里的扩展没装上。");
    lines.push("Pi 的包清单里没有 AGENTS.md 这一类；项目自己的 AGENTS.md 倒是不看信任照样加载（差异表 F31）。要随包带、又只在信任时生效，得由包里的扩展把它交给系统提示。");
  } else if (!events.includes("before_agent_start")) {
    lines.push(`包里的扩展装上了，可它订阅的是 ${events.join("、") || "（什么都没订阅）"}：Pi 每次开跑之前发 before_agent_start，监听在里面改 event.systemPromptOptions，这一次的系统提示就跟着变。`);
  } else {
    lines.push("扩展订阅了 before_agent_start，可 AGENTS.md 的内容没进系统提示：把它加进 event.systemPromptOptions.contextFiles（{ path, content }）。");
  }
  return fail(AGENTS_IN, ...lines);
}

function skillIn({ manifest: m, target }: VerdictInput, run: PiRun): Requirement {
  const [line] = promptLines(run.prompts[0] ?? "")["技能"] ?? [];
  if (line === `${SKILL.name}：只有索引（名字和说明）`) return pass(SKILL_IN);
  if (line === `${SKILL.name}：全文`) return fail(SKILL_IN, "技能的全文进了系统提示：Pi 只在提示里放技能的名字、说明和文件位置，模型要用时自己用 read 去读全文。别把 SKILL.md 的正文塞进提示。");
  const manifest = readManifest(m);
  if (typeof manifest === "string") return fail(SKILL_IN, manifest);
  const lines = quietSkips(manifest, target, "skills");
  const why = notListed(manifest, "skills", "skills/ 没装上");
  lines.push(why ?? `技能没进系统提示。SKILL.md 开头要有 name 和 description（Pi 不装没有说明的技能），放在清单的 skills 指到的目录下。`);
  return fail(SKILL_IN, ...lines);
}

function nothingUntrusted(run: PiRun): Requirement {
  const facts = promptLines(run.prompts[0] ?? "");
  const leaked = [
    ...((facts["进了提示的项目说明（按位置）"] ?? []).length > 0 ? ["AGENTS.md"] : []),
    ...((facts["技能"] ?? []).some((l) => !l.endsWith("不在提示里")) ? [`技能 ${SKILL.name}`] : []),
  ];
  if (leaked.length === 0) return pass(NOTHING_UNTRUSTED);
  return fail(NOTHING_UNTRUSTED, `项目不被信任，${leaked.join("和")}还是进了系统提示。包写在项目的 .pi/settings.json 里（和 pi install -l 写的一样），Pi 只在项目被信任时读它；资料要从包里来，别从包外面读。`);
}
