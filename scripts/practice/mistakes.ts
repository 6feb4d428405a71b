// 每课一个「看着像对、其实错了」的写法：在这一课自己的 code.ts 上打一个小补丁。练习模式的证明
// （tests/practice/exercises.proof.ts）要看到 check 把它拦下，而且是被管这个机制的那项检查拦下——
// 证明练习真的在检查东西，不是只要文件能跑就算过。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, lessonDir } from "../../tooling/course.ts";

export type Mistake = {
  lesson: string;
  /** 学习者可能犯的错，一句话。 */
  mistake: string;
  /** 在这一课的 code.ts 里把 find（必须恰好出现一次）换成 replace。 */
  find: string;
  replace: string;
  /** check 的报告里第一个没过的那一段（标题加细节）要对得上它。 */
  caught: RegExp;
};

export const MISTAKES: readonly Mistake[] = [
  {
    lesson: "s01",
    mistake: "provider 抛错时不接住，让它一路抛出去",
    find: 'assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };',
    replace: "throw error;",
    caught: /provider 抛错不外抛/,
  },
  {
    lesson: "s02",
    mistake: "同名工具再登记一次就悄悄覆盖旧的",
    find: '    if (this.tools.has(checked.spec.name)) {\n      throw new Error(`tool "${checked.spec.name}" is already registered`);\n    }\n',
    replace: "",
    caught: /同名工具登记两次/,
  },
  {
    lesson: "s03",
    mistake: "流没发 message_end 就结束，当成正常说完",
    find: 'return failed("stream ended without message_end");',
    replace: 'return { role: "assistant", content: parts.join(""), stopReason: "stop" };',
    caught: /message_end/,
  },
  {
    lesson: "s04",
    mistake: "工具循环没有 maxTurns 上限，模型一直要工具就一直跑",
    find: "for (let turn = 0; turn < maxTurns; turn++) {",
    replace: "for (;;) {",
    caught: /卡住了/,
  },
  {
    lesson: "s05",
    mistake: "钩子抛的错不接住，整轮跟着崩",
    find: "return result(`error: hook failed: ${describeError(error)}`);",
    replace: "throw error;",
    caught: /钩子抛错/,
  },
  {
    lesson: "s06",
    mistake: "拍了快照却不用，每次请求照旧现拼输入",
    find: "        ...snapshot,\n        messages: [...snapshot.messages, ...turnMessages].map((m) => ({ ...m })),\n        tools: snapshot.tools.map((t) => ({ ...t, input: { ...t.input } })),\n",
    replace: "        ...buildProviderInput(agent),\n",
    caught: /一轮之内/,
  },
  {
    lesson: "s07",
    mistake: "currentPath 从叶子往回走，忘了把顺序倒过来",
    find: "return path.reverse();",
    replace: "return path;",
    caught: /user \+ assistant|从根到叶子/,
  },
  {
    lesson: "s08",
    mistake: "技能全文塞进系统提示，而不是只列一行索引",
    find: '`- ${r.name}: ${r.content.trim().split("\\n")[0].replace(/^#+\\s*/, "")}`',
    replace: "`- ${r.name}: ${r.content.trim()}`",
    caught: /技能只进索引/,
  },
  {
    lesson: "s09",
    mistake: "扩展登记工具时立刻放进 registry，装到一半抛错的扩展留下半截",
    find: "          tools.push(checked);",
    replace: "          this.registry.register(checked);",
    caught: /什么都不留下/,
  },
  {
    lesson: "s10",
    mistake: "PrintMode 把每条消息都打出来，而不是只打最终回答",
    find: 'if (event.type === "message") last = event.content;',
    replace: 'if (event.type === "message") this.output.log(event.content);',
    caught: /PrintMode|最终回答/,
  },
  {
    lesson: "s11",
    mistake: "不信任的项目照样加载资料",
    find: '    if (trust !== "trusted") return [];\n',
    replace: "",
    caught: /不信任的项目/,
  },
  {
    lesson: "s12",
    mistake: "装包时查了工具和命令重名，忘了查同名的包",
    find: '  if (agent.packages.includes(loaded.name)) refuse("a package with this name is already installed");\n',
    replace: "",
    caught: /同名的包/,
  },
];

/** 打好补丁的文件内容。find 没有恰好出现一次就报错：课的代码变了，补丁得跟着改。 */
export function mistakenCode(m: Mistake): string {
  const code = readFileSync(join(ROOT, lessonDir(m.lesson), "code.ts"), "utf8");
  const count = code.split(m.find).length - 1;
  if (count !== 1) throw new Error(`${m.lesson} mistake "${m.mistake}": the patch target occurs ${count} times in ${lessonDir(m.lesson)}/code.ts (need exactly 1)`);
  return code.replace(m.find, () => m.replace);
}
