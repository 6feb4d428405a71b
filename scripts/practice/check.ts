// npm run check -- s04：用课程自己的检查（类型、API、行为测试、黄金轨迹、演示输出）检查 practice/s04_*/code.ts，
// 打印一份中文报告：哪些过了，第一个没过的是什么、期望什么、实际怎样。全过退出码 0，否则 1。
//   --watch     每次保存练习文件就重查一遍
//   --solution  同样的检查用在这一课自己的 code.ts 上（证明检查本身是对的）
import { existsSync, watch } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { ROOT, lessonDir } from "../../tooling/course.ts";
import { runChecks } from "../../tooling/practice/run-checks.ts";
import { practiceFile, readArgs } from "../../tooling/practice/lesson-arg.ts";
import { formatReport, wantsColor } from "../../tooling/practice/check-report.ts";

const { id, on } = readArgs("check", ["--watch", "--solution"]);
const solution = on.has("--solution");
const file = solution ? join(ROOT, lessonDir(id), "code.ts") : practiceFile(id);

if (!existsSync(file)) {
  console.error(`还没有练习文件 ${relative(ROOT, file)}。先生成它：npm run practice -- ${id}`);
  process.exit(2);
}

const once = async (): Promise<boolean> => {
  if (!existsSync(file)) {
    // --watch 时编辑器保存可能先删后写：等下一次保存
    console.log(`${relative(ROOT, file)} 不见了；重新生成：npm run practice -- ${id}`);
    return false;
  }
  const outcome = await runChecks(id, file);
  console.log(formatReport(outcome, solution, { color: wantsColor(process.stdout, process.env) }));
  return outcome.ok;
};

if (!on.has("--watch")) {
  process.exitCode = (await once()) ? 0 : 1;
} else {
  // 保存一次，编辑器可能连着写好几下：等它安静 300 毫秒再查；查的时候又存了，查完再来一遍
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const recheck = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    do {
      again = false;
      console.clear();
      await once();
      console.log(`\n（--watch：盯着 ${relative(ROOT, file)}，保存就重查；Ctrl+C 退出）`);
    } while (again);
    running = false;
  };
  // 盯文件夹而不是文件：不少编辑器保存时是写新文件再改名，盯着旧文件就收不到后面的保存
  watch(dirname(file), (_event, name) => {
    if (name !== basename(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void recheck(), 300);
  });
  await recheck();
}
