// vitest.config.ts 的 setupFiles：每个测试文件开头跑一次。
import { checkNothingLeftBehind } from "./isolation.ts";

checkNothingLeftBehind();
