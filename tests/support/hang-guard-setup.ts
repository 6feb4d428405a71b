// 练习模式的证明（tests/practice/vitest.config.ts）和浏览器测试（site/vitest.e2e.config.ts）的 setupFiles：
// 撞上防卡死上限时报错说清这一点（hang-guard-message.ts）。npm test 的 setup.ts 自己调同一个函数。
import { explainHangGuard } from "./hang-guard-message.ts";

explainHangGuard();
