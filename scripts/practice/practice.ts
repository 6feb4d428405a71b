// npm run practice -- s04：把 s04 的 code.ts 抄一份到 practice/s04_tool_loop/code.ts，这一课新写的函数体挖成空白，
// 由学习者自己补上，再用 npm run check -- s04 检查。已有的练习文件绝不覆盖；--reset 才重新生成（旧的留一份 .bak）。
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { ROOT } from "../../tooling/course.ts";
import { practiceFile, readArgs } from "../../tooling/practice/lesson-arg.ts";
import { makePractice } from "../../tooling/practice/stub.ts";

const { id, on } = readArgs("practice", ["--reset"]);
const file = practiceFile(id);
const shown = relative(ROOT, file);

if (existsSync(file) && !on.has("--reset")) {
  console.log(`${shown} 已经有了，不会覆盖你写的东西。`);
  console.log(`接着写，写完检查：npm run check -- ${id}`);
  console.log(`想从头再来：npm run practice -- ${id} --reset（旧文件会留一份 code.ts.bak）`);
  process.exit(1);
}

const practice = makePractice(id);
mkdirSync(dirname(file), { recursive: true });
if (existsSync(file)) {
  copyFileSync(file, `${file}.bak`);
  console.log(`--reset：覆盖 ${shown}，你原来写的存到了 ${shown}.bak`);
}
writeFileSync(file, practice.text);

console.log(`写好了 ${shown}：${practice.dir}/code.ts 原样抄过来，这一课新写的 ${practice.stubs.length} 处挖成了空白。`);
const verb = { body: "写出", rewrite: "改写", part: "补上" } as const;
for (const s of practice.stubs) console.log(`  第 ${String(s.line).padStart(3)} 行  ${verb[s.kind]} ${s.name}（见 README「${s.section}」）`);
console.log("");
console.log("每处空白现在是一句 throw new Error(\"TODO …\")，换成你的实现。类型、签名、注释、前面几课的代码和演示都在，别改它们。");
console.log(`检查：npm run check -- ${id}`);
console.log(`边写边查（每次保存自动重查）：npm run check -- ${id} --watch`);
