// vitest.config.ts 的 setupFiles：每个测试文件开头跑一次。
// ① 撞上防卡死上限时的报错说清这是防卡死的上限（hang-guard-message.ts）。
// ② 文件跑完时查它没给同一个 worker 里的下一个文件留下状态（isolation.ts）。
import { explainHangGuard } from "./hang-guard-message.ts";
import { checkNothingLeftBehind } from "./isolation.ts";

explainHangGuard();
checkNothingLeftBehind();
