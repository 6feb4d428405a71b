/**
 * Docs check: 试一下. What a README writer must do to pass:
 *
 *   A ```bash / ```sh block whose lines run a lesson — `npm run sNN`, `npm start`, `npx tsx sNN_x/code.ts`
 *   (`$ ` prompts allowed; other lines such as comments are not run) — must be followed directly by a
 *   ```text (or plain ```) block holding exactly the commands' stdout (trailing spaces per line and
 *   trailing blank lines ignored). At least one such block must run this lesson. `npm run` is resolved
 *   through package.json scripts (`tsx <file>` or `node --import … --import tsx <file>`) and the file runs under tsx (no npm banner).
 */
import { findSection, lineOf } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

const LESSON_COMMAND = /^(?:npm\s+(?:run|run-script)\s+s\d\d\b|npm\s+(?:run\s+)?start\b|npx\s+tsx\s+s\d\d_[\w-]+\/code\.ts\b|tsx\s+s\d\d_[\w-]+\/code\.ts\b)/;
const SHELL_LANGS: ReadonlySet<string> = new Set(["bash", "sh", "shell"]);
const OUTPUT_LANGS: ReadonlySet<string> = new Set(["", "text", "txt", "plain", "plaintext"]);

/** The command lines of a bash/sh block that run a lesson (`$ ` prompts stripped). */
export function lessonCommands(body: readonly string[]): string[] {
  return body.map((l) => l.trim().replace(/^\$\s+/, "")).filter((l) => LESSON_COMMAND.test(l));
}

/** Trailing spaces per line and trailing blank lines dropped. */
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

/** Every 试一下 lesson command of a README (to start the runs early, in parallel). */
export function tryItCommands(readme: string): string[] {
  const section = findSection(readme, "试一下");
  return (section?.nodes ?? []).flatMap((b) => (b.type === "code" && SHELL_LANGS.has(b.lang ?? "") ? lessonCommands(b.value.split("\n")) : []));
}
