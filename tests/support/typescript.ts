// vitest.config.ts 让测试里的 `import ts from "typescript"` 落到这里：同一个 typescript，用 require 载入。
// typescript 是一个 9 MB 的 CommonJS 文件。用 import 载入时，Node 20 先把它当 ES 模块试编译一遍来认格式，
// 再用 cjs-module-lexer 从头扫一遍找具名导出，最后才按 CommonJS 编译；require 只编译那一遍（每个 worker 约省 0.3 s CPU）。
import { createRequire } from "node:module";
import type TS from "typescript";

const ts = createRequire(import.meta.url)("typescript") as typeof TS;
export default ts;
