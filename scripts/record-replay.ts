// npm run gen:replay：把每一课的演示（tooling/scenarios/data.ts 里的 sNN-demo* 场景）录成网页回放用的
// site/replay/sNN.json。文件进版本库；tests/replay.test.ts 现录一遍和它比，课或场景一改，测试就提醒重录。
import { join } from "node:path";
import { recordReplay, replayLessons } from "../site/lib/record/replay.ts";
import { LESSONS, ROOT } from "../tooling/course.ts";
import { writeGeneratedJson } from "../tooling/generated-json.ts";

const lessons = replayLessons(LESSONS);
const files = new Map<string, unknown>();
for (const lesson of lessons) files.set(`${lesson}.json`, await recordReplay(lesson));
const changed = writeGeneratedJson(join(ROOT, "site", "replay"), files);
console.log(`${lessons.length} replays, ${changed} file(s) written or removed`);
