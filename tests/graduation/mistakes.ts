// 每个毕业练习几个「看着像对的错误写法」：从参考答案改一处来（一个函数体换掉，或者换一份清单），
// 多半是照 mini Pi 的习惯写的。tests/graduation/graduate.proof.ts 把它们装进真的 Pi，证明检查拦得住、说的是对的那件事。
import type { ExerciseNumber } from "../../tooling/graduation/exercises.ts";
import { type Exercise, exercise } from "../../tooling/graduation/exercises.ts";
import { type ExerciseFiles, replaceBody, solutionFiles, withManifest } from "../../tooling/graduation/stub.ts";

export type Mistake = {
  exercise: ExerciseNumber;
  /** 这样写错了（测试名里用）。 */
  mistake: string;
  /** 换掉哪些函数体（函数名 → 新的几行），或者换成哪一份清单。 */
  bodies?: Record<string, string[]>;
  manifest?: unknown;
  /** 第一条没过的要求，和它该说的话。 */
  fails: string;
  caught: RegExp;
};

export const MISTAKES: readonly Mistake[] = [
  {
    exercise: 1,
    mistake: "路径直接拼到工作目录上，不设围栏",
    bodies: { insideProject: ["return resolve(cwd, requested);"] },
    fails: "走出工作目录的 ../secret.txt 读不到",
    caught: /把工作目录外面的 \.\.\/secret\.txt 读出来了/,
  },
  {
    exercise: 1,
    mistake: "只按字面查 ..，不解开链接",
    bodies: {
      insideProject: [
        "const wanted = resolve(cwd, requested);",
        'if (relative(cwd, wanted).startsWith("..")) throw new Error(`"${requested}" is outside the working directory`);',
        "return wanted;",
      ],
    },
    fails: "指到外面的链接 notes.md 读不到",
    caught: /realpathSync/,
  },
  {
    exercise: 1,
    mistake: "照 mini Pi 写成 { spec, handler }",
    bodies: { fencedRead: ['pi.registerTool({ spec: { name: "read", description: "读文件", input: { path: "路径" } }, handler: ({ path }: { path: string }) => readFileSync(insideProject(process.cwd(), path), "utf8") } as never);'] },
    fails: "Pi 装得上你的扩展",
    caught: /不是 mini Pi 的 \{ spec, handler \}/,
  },
  {
    exercise: 2,
    mistake: "照 mini Pi 回 { type: \"block\" }",
    bodies: { decide: ['if (event.toolName !== "rm") return { type: "allow" } as never;', 'return { type: "block", reason: "删除需要人来确认" } as never;'] },
    fails: "rm 被拦下了，src/config.ts 还在",
    caught: /这是 mini Pi 的写法。Pi 只看回答里的 block/,
  },
  {
    exercise: 2,
    mistake: "拦下了，没写 reason",
    bodies: { decide: ['return event.toolName === "rm" ? { block: true } : undefined;'] },
    fails: "拦下时说明了理由",
    caught: /没说为什么.*Tool execution was blocked/,
  },
  {
    exercise: 2,
    mistake: "什么都拦",
    bodies: { decide: ['return { block: true, reason: "先别动" };'] },
    fails: "别的调用照常：README.md 读到了",
    caught: /你的监听对 read 回了.*只拦 rm/,
  },
  {
    exercise: 3,
    mistake: "照 mini Pi 的清单把 AGENTS.md 列进 resources",
    manifest: { skills: ["./skills"], resources: ["AGENTS.md"] },
    fails: "项目被信任时：包里的 AGENTS.md 进了系统提示",
    caught: /resources 不是 Pi 认的键[\s\S]*F31/,
  },
  {
    exercise: 3,
    mistake: "清单只列 extensions",
    manifest: { extensions: ["./src/project-notes.ts"] },
    fails: `项目被信任时：技能 release 进了系统提示的索引（名字和说明，不是全文）`,
    caught: /清单列了 extensions，没列 skills/,
  },
];

/** 一个错误写法的全部文件：参考答案改一处。 */
export function mistakenFiles(m: Mistake): { ex: Exercise; files: ExerciseFiles } {
  const ex = exercise(m.exercise);
  const files = solutionFiles(ex);
  for (const [name, lines] of Object.entries(m.bodies ?? {})) {
    const blank = ex.blanks.find((b) => b.name === name);
    if (blank === undefined) throw new Error(`mistake for exercise ${m.exercise}: no blank ${name}`);
    files[blank.file] = replaceBody(files[blank.file] ?? "", name, lines);
  }
  if (m.manifest !== undefined) files["package.json"] = withManifest(files["package.json"] ?? "", m.manifest);
  return { ex, files };
}
