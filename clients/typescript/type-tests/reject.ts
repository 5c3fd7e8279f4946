// Must NOT compile (tests/test_typescript_sdk.py runs tsc on it and expects an error on each line
// marked below, and on no other): ActionInput is exactly one member, set to a value.
import type { ActionInput, ErrorCode } from "../schema";

const place = { ship: 2, slot: 3 };
export const two: ActionInput = { imhotepGetStones: true, imhotepPlaceStone: place }; // must not compile
export const none: ActionInput = {}; // must not compile
export const nothingSet: ActionInput = { imhotepPlaceStone: null }; // must not compile
export const code: ErrorCode = "NOT_A_CODE"; // must not compile
