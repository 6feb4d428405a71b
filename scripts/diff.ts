// 读者的 diff：`npm run diff -- s03` 打印 s03 相对 s02 加了什么——API 的变化（新增、升级及其规则），
// 以及 code.ts 里新加和改掉的行。这是每节「接入主线」的原材料，也让读长文件的人只看新东西。
// `npm run diff -- s01` 打印地基：s01 的全部声明和全部代码。不带参数时从 s01 起依次打印每一课。
// `npm run diff -- s04 --api` 只打印 API 的变化（声明、成员和它们的签名），新代码一行也不打印：练习时看接口，不看答案。
// 读的是课文件本身，不是提交的 tests/api/*.json。API 报告的键（`ProviderEvent|[type="tool_call"]` 这种，
// 写法见 tests/api/README.md）在这里翻回读者会写的样子：`ProviderEvent` 的成员 `{ type: "tool_call"; call: ToolCall }`。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ApiReport, buildApiReports } from "../tooling/api/extract";
import { diffReports, isLiteralUnionGrowth } from "../tooling/api/diff.ts";
import { ownerOf } from "../tooling/api/keys.ts";
import { U1_UPGRADES } from "../tooling/constitution/data.ts";
import { LESSON_DIRS, ROOT } from "../tooling/course.ts";
import { diffLines } from "../tooling/linediff";

// ── 报告的键 → 读者写的 TypeScript ─────────────────────────
const isTag = (key: string): boolean => key.includes("@");

/** `(a: A) => R` → `(a: A): R`（方法、函数的写法）；读不出来就原样返回。 */
export function signatureText(sig: string): string {
  let depth = 0;
  for (let i = 0; i < sig.length; i++) {
    const c = sig[i];
    if (c === "(" || c === "<" || c === "{" || c === "[") depth++;
    else if (c === ")" || (c === ">" && sig[i - 1] !== "=") || c === "}" || c === "]") {
      depth--;
      if (depth === 0 && c === ")" && sig.startsWith(" => ", i + 1)) return `${sig.slice(0, i + 1)}: ${sig.slice(i + 5)}`;
    }
  }
  return sig;
}

/** 类型里写着的一个成员：`name?: T`、`readonly name: T`、`name(a: A): R`。 */
export function memberText(name: string, value: string): string {
  const prop = /^(readonly )?(\?)?: (.*)$/s.exec(value);
  if (prop) return `${prop[1] ?? ""}${name}${prop[2] ?? ""}: ${prop[3]}`;
  const optional = value.startsWith("?") ? "?" : "";
  return `${name}${optional}${signatureText(value.slice(optional.length))}`;
}

/** 报告里 `owner` 的键（标签除外）。 */
const keysOf = (report: ApiReport, owner: string): string[] => Object.keys(report).filter((k) => !isTag(k) && ownerOf(k) === owner);

/** `{ type: "tool_call"; call: ToolCall }`：`prefix`（`X.` 或 `X[type="a"].`）下面的对象成员。 */
function objectText(report: ApiReport, prefix: string): string {
  const members = Object.keys(report)
    .filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes("."))
    .map((k) => memberText(k.slice(prefix.length), report[k] ?? ""));
  return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
}

/** 一个联合成员的键写成文字：`"toolUse"`、`ToolResultMessage`，或变体对象 `{ type: "a"; … }`。 */
function unionMemberText(report: ApiReport, key: string): string {
  const owner = ownerOf(key);
  const member = key.slice(owner.length + 1);
  return /^\[.*\]$/.test(member) ? objectText(report, `${owner}${member}.`) : (report[key] ?? member);
}

/** 照读者写的样子写出一整个声明：`type ToolCall = { … }`、`class ToolRegistry { … }`、`function f(…): R`。 */
export function declarationText(report: ApiReport, owner: string): string {
  const kind = (report[owner] ?? "").replace(/^export /, "");
  const keys = keysOf(report, owner);
  if (kind.startsWith("function")) return `function ${owner}${signatureText(kind.slice("function ".length))}`;
  if (/^(const|let)/.test(kind)) return `${kind.slice(0, kind.indexOf(":"))} ${owner}${kind.slice(kind.indexOf(":"))}`;
  if (kind.startsWith("class")) {
    const members: string[] = [];
    const ctor = report[`${owner}.constructor`];
    if (ctor !== undefined) members.push(`constructor${signatureText(ctor.replace(/^new /, "")).replace(/: [^:]*$/, "")}`);
    for (const k of keys) {
      if (k.startsWith(`${owner}#`)) members.push(memberText(k.slice(owner.length + 1), report[k] ?? ""));
      else if (k.startsWith(`${owner}.`) && k !== `${owner}.constructor`) members.push(`static ${memberText(k.slice(owner.length + 1), report[k] ?? "")}`);
    }
    return `${kind} ${owner} { ${members.join("; ")} }`;
  }
  if (kind.startsWith("enum")) return `enum ${owner} { ${keys.filter((k) => k !== owner).map((k) => `${k.slice(owner.length + 1)} ${report[k]}`).join(", ")} }`;
  const head = kind.startsWith("interface") ? `${kind} ${owner} ` : `${kind} ${owner} = `;
  if (report[`${owner}=`] !== undefined) return `${head}${report[`${owner}=`]}`;
  if (report[`${owner}()`] !== undefined && keys.every((k) => k === owner || k === `${owner}()`)) return `${head}${report[`${owner}()`]}`;
  const variants = keys.filter((k) => k.startsWith(`${owner}|`));
  if (variants.length > 0) return `${head}${variants.map((k) => unionMemberText(report, k)).join(" | ")}`;
  return `${head}${objectText(report, `${owner}.`)}`;
}

/** 读者怎么称呼报告里的一个键：`ToolRegistry.run`、`StopReason` 的成员 `"toolUse"`、`new ExtensionRuntime(…)`。 */
export function keyText(report: ApiReport, key: string): string {
  const owner = ownerOf(key);
  const rest = key.slice(owner.length);
  if (rest === "") return owner;
  if (rest === "=") return `${owner}（类型别名）`;
  if (rest === "()") return `${owner} 的调用签名`;
  if (rest === " new()" || rest === ".constructor") return `new ${owner}(…)`;
  if (rest.startsWith("#") || rest.startsWith(".")) return `${owner}.${rest.slice(1)}`;
  if (rest.startsWith("|")) return `${owner} 的成员 ${unionMemberText(report, key)}`;
  const field = /^\[([\w$]+)=(.*)\]\.(.+)$/.exec(rest);
  if (field) return `${owner} 里 ${field[1]} 为 ${field[2]} 的那种的 ${field[3]}`;
  return `${owner}${rest}`;
}

/** 一个键给已有的声明加了什么，写成一行：一个成员，或一个联合成员连同它的字段。 */
function addedText(report: ApiReport, key: string): string {
  const owner = ownerOf(key);
  const rest = key.slice(owner.length);
  if (rest.startsWith("#") || rest.startsWith(".")) return `${owner}.${memberText(rest.slice(1), report[key] ?? "")}`;
  if (rest === "()") return `${owner} 的调用签名 ${report[key]}`;
  return keyText(report, key);
}

/** 改了的键：`AgentState.messages: AgentMessage[] → SessionTree`、`ResourceLoader.load(): … → ResourceLoader.load(trust: ProjectTrust): …`。 */
function changeText(prev: ApiReport, report: ApiReport, key: string, from: string, to: string): string {
  const owner = ownerOf(key);
  const rest = key.slice(owner.length);
  const prop = /^(?:readonly )?\??: /;
  if (rest.startsWith("#") || rest.startsWith(".")) {
    if (prop.test(from) && prop.test(to)) return `${owner}.${rest.slice(1)}: ${from.replace(prop, "")} → ${to.replace(prop, "")}`;
    return `${addedText(prev, key)} → ${addedText(report, key)}`;
  }
  return `${keyText(report, key)}：${from} → ${to}`;
}

// ── 一课相对上一课 ─────────────────────────────────────────
/** `npm run diff` 的 API 部分：s01 的整个 API，或 `id` 比 `prev` 多了、改了什么。 */
export function apiLines(id: string, report: ApiReport, prev: ApiReport | undefined): string[] {
  const out: string[] = [];
  if (prev === undefined) {
    const decls = Object.keys(report).filter((k) => ownerOf(k) === k);
    out.push(`## API：地基，${decls.length} 个声明（之后每课只加不删）`);
    for (const d of decls) out.push(`+ ${declarationText(report, d)}`);
    return out;
  }
  const { added, removed, changed } = diffReports(prev, report);
  const newDecls = added.filter((k) => ownerOf(k) === k);
  // 新的声明整个打出来；新的联合成员带着它自己的字段
  const covered = (k: string): boolean =>
    newDecls.includes(ownerOf(k)) || added.some((v) => v !== k && /\|\[.*\]$/.test(v) && k.startsWith(`${ownerOf(v)}${v.slice(ownerOf(v).length + 1)}.`));
  const grown = added.filter((k) => !isTag(k) && !covered(k));
  const verdict = (key: string, from: string, to: string | null): string => {
    if (U1_UPGRADES.some((u) => u.lesson === id && u.key === key)) return "这是升级（U1）";
    if (to !== null && isLiteralUnionGrowth(from, to)) return "联合只增，R1 允许";
    return "违反宪法：不在 U1 清单里";
  };
  const changes = [...changed, ...removed].filter((c) => !isTag(c.key));
  out.push(`## API：新增 ${newDecls.length} 个声明，已有的声明多了 ${grown.length} 处，升级/改动 ${changes.length} 处`);
  for (const d of newDecls) out.push(`+ ${declarationText(report, d)}`);
  for (const k of grown) out.push(`+ ${addedText(report, k)}`);
  for (const c of changed.filter((c) => !isTag(c.key))) out.push(`~ ${changeText(prev, report, c.key, c.from, c.to ?? "")}  [${verdict(c.key, c.from, c.to)}]`);
  for (const c of removed.filter((c) => !isTag(c.key))) out.push(`- ${addedText(prev, c.key)}  [${verdict(c.key, c.from, null)}]`);
  return out;
}

/** 代码部分：s01 的每一行，或 `id` 比 `prev` 多了、少了的行。 */
export function codeLines(prevCode: string | undefined, code: string): string[] {
  const lines = diffLines(prevCode ?? "", code).filter((d) => prevCode !== undefined || d.kind !== "del");
  const adds = lines.filter((d) => d.kind === "add");
  const dels = lines.filter((d) => d.kind === "del");
  const out = [prevCode === undefined ? `## code.ts：${adds.length} 行，全部是地基` : `## code.ts：新加 ${adds.length} 行，删掉 ${dels.length} 行`];
  for (const d of lines) {
    if (d.kind === "add") out.push(`+${String(d.line).padStart(4)}  ${d.text}`);
    else if (d.kind === "del") out.push(`-      ${d.text}`);
  }
  return out;
}

/** `--api`：只打印 API 的变化，代码行一行也不打印（练习时看接口不看答案）。 */
export const API_ONLY = "--api";

/** `npm run diff` 打出的一课：先是 API 部分，然后是代码行（apiOnly 时只说有几行）。 */
export function lessonDiff(id: string, prev: { id: string; report: ApiReport; code: string } | undefined, report: ApiReport, code: string, apiOnly = false): string {
  const head = prev === undefined ? `# ${id}（地基）\n` : `# ${prev.id} → ${id}\n`;
  const lines = codeLines(prev?.code, code);
  const codePart = apiOnly
    ? [`${lines[0]}（${API_ONLY} 不打印代码；要看：npm run diff -- ${id}）`]
    : lines;
  return `${head}\n${apiLines(id, report, prev?.report).join("\n")}\n\n${codePart.join("\n")}\n`;
}

function main(): void {
  // 接到 head 之类提前关掉的管道时安静退出。
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  const args = process.argv.slice(2);
  const flags = args.filter((a) => a.startsWith("--"));
  const unknownFlags = flags.filter((f) => f !== API_ONLY);
  if (unknownFlags.length > 0) {
    console.error(`不认识的选项：${unknownFlags.join(" ")}（只有 ${API_ONLY}：只看 API 的变化，不看新代码）`);
    process.exit(2);
  }
  const { reports } = buildApiReports();
  const ids = Object.keys(reports).sort();
  const wanted = args.filter((a) => !a.startsWith("--"));
  const unknown = wanted.filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    console.error(`没有这一课：${unknown.join(", ")}（已有：${ids.join(" ")}）`);
    process.exit(2);
  }
  const codeOf = (id: string): string => {
    const dir = LESSON_DIRS.find((d) => d.startsWith(`${id}_`));
    return dir === undefined ? "" : readFileSync(join(ROOT, dir, "code.ts"), "utf8");
  };
  for (const [i, id] of ids.entries()) {
    if (wanted.length > 0 && !wanted.includes(id)) continue;
    const prev = i > 0 ? ids[i - 1] : undefined;
    const before = prev === undefined ? undefined : { id: prev, report: reports[prev] ?? {}, code: codeOf(prev) };
    console.log(lessonDiff(id, before, reports[id] ?? {}, codeOf(id), flags.includes(API_ONLY)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
