// 课程的事实，只在这里写一次：仓库根在哪、有哪几课、课号怎么算、API 报告放在哪、长什么样。
// 测试、脚本、网站、保真对照都从这里拿，不各自去 readdir。只用 node:fs 和 zod：VitePress 的配置也引用它，不能拖进测试框架。
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";

/** 仓库根目录。 */
export const ROOT = resolve(import.meta.dirname, "..");

/** 一课：课号、文件夹、code.ts 和 README.md 的绝对路径。 */
export type CourseLesson = { id: string; dir: string; codePath: string; readmePath: string };

/** 一课的文件夹：`s03_stream` 这样，课号两位，后面是小写的主题。 */
const LESSON_DIR = /^s\d\d_[a-z_]+$/;

/** root 下有 code.ts 的课，按课号排好（root 默认是仓库根；文档检查的样例有自己的 root）。 */
export function findLessons(root: string = ROOT): CourseLesson[] {
  return readdirSync(root)
    .filter((name) => LESSON_DIR.test(name) && existsSync(join(root, name, "code.ts")))
    .sort()
    .map((dir) => ({ id: dir.slice(0, 3), dir, codePath: join(root, dir, "code.ts"), readmePath: join(root, dir, "README.md") }));
}

const COURSE = findLessons();

/** 仓库里的课的文件夹，按课号，如 ["s01_one_turn", "s02_tools", …]。 */
export const LESSON_DIRS: readonly string[] = COURSE.map((l) => l.dir);

/** 仓库里的课号，如 ["s01", "s02", …]。 */
export const LESSONS: readonly string[] = COURSE.map((l) => l.id);

/** `s03` → 3。 */
export const lessonNumber = (id: string): number => Number(id.slice(1, 3));

/** 3 → `s03`。 */
export const lessonId = (n: number): string => `s${String(n).padStart(2, "0")}`;

/** 上一课的课号；第一课没有上一课。 */
export const previousLesson = (id: string): string | undefined => (lessonNumber(id) > 1 ? lessonId(lessonNumber(id) - 1) : undefined);

/** `s03` → `s03_stream`。 */
export function lessonDir(id: string): string {
  const dir = LESSON_DIRS.find((d) => d.startsWith(`${id}_`));
  if (dir === undefined) throw new Error(`no lesson folder for ${id}`);
  return dir;
}

/** `s03` → 仓库里 s03_stream/code.ts 的绝对路径。 */
export const lessonCodePath = (id: string): string => join(ROOT, lessonDir(id), "code.ts");

// ── API 报告 ──────────────────────────────────────────────
/** 一课的 API 报告：键 → 签名文字（键的写法见 tests/api/README.md），由 tooling/api/extract.ts 算出。 */
export type ApiReport = Record<string, string>;

/** 提交的 API 报告所在的文件夹：tests/api/sNN.json（npm run gen:api 重写）。 */
export const API_DIR = join(ROOT, "tests", "api");

const Report = z.record(z.string(), z.string());

/** dir 里的每份 sNN.json，按课号：课号 → 报告。 */
export function readApiReports(dir: string = API_DIR): Map<string, ApiReport> {
  const reports = new Map<string, ApiReport>();
  if (!existsSync(dir)) return reports;
  for (const file of readdirSync(dir).filter((f) => /^s\d\d\.json$/.test(f)).sort()) {
    reports.set(file.slice(0, 3), Report.parse(JSON.parse(readFileSync(join(dir, file), "utf8"))));
  }
  return reports;
}
