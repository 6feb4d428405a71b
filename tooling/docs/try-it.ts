/**
 * 文档检查：试一下。写 README 的人要做到：
 *
 *   跑一课的 ```bash / ```sh 代码块——`npm run sNN`、`npm start`、`npx tsx sNN_x/code.ts`（可以带 `$ ` 提示符；注释这类
 *   别的行不跑）——后面紧跟一个 ```text（或不写语言的 ```）代码块，里面一字不差就是这些命令的 stdout（每行行尾的空格、
 *   末尾的空行不算）。至少有一个这样的代码块跑的是这一课。`npm run` 照 package.json 的脚本解析（`tsx <文件>` 或
 *   `node --import … --import tsx <文件>`），文件在 tsx 底下跑（没有 npm 的横幅）。
 */
import { findSection, lineOf } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

const LESSON_COMMAND = /^(?:npm\s+(?:run|run-script)\s+s\d\d\b|npm\s+(?:run\s+)?start\b|npx\s+tsx\s+s\d\d_[\w-]+\/code\.ts\b|tsx\s+s\d\d_[\w-]+\/code\.ts\b)/;
const SHELL_LANGS: ReadonlySet<string> = new Set(["bash", "sh", "shell"]);
const OUTPUT_LANGS: ReadonlySet<string> = new Set(["", "text", "txt", "plain", "plaintext"]);

/** bash/sh 代码块里跑一课的命令行（去掉 `$ ` 提示符）。 */
export function lessonCommands(body: readonly string[]): string[] {
  return body.map((l) => l.trim().replace(/^\$\s+/, "")).filter((l) => LESSON_COMMAND.test(l));
}

/** 去掉每行行尾的空格和末尾的空行。 */
export function normalizeOutput(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

export async function checkTryIt(lessonId: string, readme: string, ctx: DocsContext): Promise<string[]> {
  const section = findSection(readme, "试一下");
  if (!section) return [];
  const say = (what: string): string => `${lessonId} README 试一下: ${what}`;
  const out: string[] = [];
  let runsThisLesson = false;
  const jobs: Promise<string | undefined>[] = [];
  section.nodes.forEach((block, i) => {
    if (block.type !== "code" || !SHELL_LANGS.has(block.lang ?? "")) return;
    const commands = lessonCommands(block.value.split("\n"));
    if (commands.length === 0) return;
    if (commands.some((c) => /\bs(\d\d)\b|\bs(\d\d)_/.exec(c)?.slice(1).find(Boolean) === lessonId.slice(1))) runsThisLesson = true;
    const next = section.nodes[i + 1];
    const shown = commands.join(" && ");
    if (next?.type !== "code" || !OUTPUT_LANGS.has(next.lang ?? "")) {
      out.push(say(`the command block at line ${lineOf(block)} (${shown}) must be followed by a \`\`\`text block with its output`));
      return;
    }
    jobs.push(
      Promise.all(commands.map((c) => ctx.run(c))).then((results) => {
        const failed = results.find((r): r is { ok: false; error: string } => !r.ok);
        if (failed) return say(`\`${shown}\` failed: ${failed.error}`);
        const got = normalizeOutput(results.map((r) => (r.ok ? r.stdout : "")).join(""));
        const expected = normalizeOutput(next.value);
        for (let k = 0; k < Math.max(got.length, expected.length); k++) {
          if (got[k] !== expected[k]) {
            const show = (s: string | undefined): string => (s === undefined ? "(end of output)" : `"${s}"`);
            return say(`output differs at line ${k + 1}: expected ${show(expected[k])}, got ${show(got[k])} (${shown}, block at line ${lineOf(next)})`);
          }
        }
        return undefined;
      }),
    );
  });
  for (const r of await Promise.all(jobs)) if (r !== undefined) out.push(r);
  if (!runsThisLesson) out.push(say(`no \`\`\`bash block runs this lesson (e.g. npm run ${lessonId}) followed by its output`));
  return out;
}

/** 一份 README 里试一下要跑的每条课的命令（好早点一起开跑）。 */
export function tryItCommands(readme: string): string[] {
  const section = findSection(readme, "试一下");
  return (section?.nodes ?? []).flatMap((b) => (b.type === "code" && SHELL_LANGS.has(b.lang ?? "") ? lessonCommands(b.value.split("\n")) : []));
}
