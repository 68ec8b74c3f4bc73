import { strykerConfig } from "./config.mjs";

export default strykerConfig("parallel-write");
