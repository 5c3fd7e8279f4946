// Generated from schema.graphql by clients/typescript/generate.py: do not edit.
// Regenerate: .venv/bin/python clients/typescript/generate.py
/** Every value of `ErrorCode`. */
export const ErrorCodeValues = ["BAD_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "NOT_YOUR_TURN", "ILLEGAL_ACTION", "CONFLICT", "GAME_NOT_ACTIVE", "TABLE_FULL", "RATE_LIMITED", "UNKNOWN_DOCUMENT", "UNAVAILABLE", "INTERNAL"];
/** Every value of `AmunReBank`. */
export const AmunReBankValues = ["WEST", "EAST"];
/** Every value of `AmunReBidStatus`. */
export const AmunReBidStatusValues = ["NEW", "STANDING", "OUTBID"];
/** Every value of `AmunReCard`. */
export const AmunReCardValues = ["PROTECTION", "BRIBE", "ARCHITECT", "EXTRA_FARMER", "OFFERING_ADJUSTMENT", "EXCEPTIONAL_HARVEST", "FIXED_INCOME", "SCRIBE_MASTER", "FARMER_MASTER", "BANK_SCHEME", "RIVER_SCHEME", "REGION_SCHEME", "AFTERLIFE", "TRIBUTE", "PHARAOHS_BLESSING", "GLORY", "GREED", "POPULARITY", "EXPORT"];
/** Every value of `AmunReDecision`. */
export const AmunReDecisionValues = ["BID", "SELL_FOR_PAYMENT", "MARKET_TURN", "COMMIT", "GIFT_COLLECTION", "HARVEST_TURN", "FINAL_SALE", "PLACE_FARMER", "PLACE_STONE", "THOTH_DISCARD", "TOMB_DISCARD", "PLACE_TOMB_TILE"];
/** Every value of `AmunReOfferKind`. */
export const AmunReOfferKindValues = ["GOLD", "THEFT"];
/** Every value of `AmunRePhase`. */
export const AmunRePhaseValues = ["SETUP", "AUCTION", "RESOLUTION", "MARKET", "OFFERING", "GIFTS", "HARVEST", "SCORED", "BETWEEN", "FINAL_SALE", "OVER"];
/** Every value of `AmunReProvinceId`. */
export const AmunReProvinceIdValues = ["ABU", "EDFU", "KHARGA", "ABYDOS", "MEMPHIS", "SAIS", "DAMANHUR", "BUTO", "BERENIKE", "SAWU", "AMARNA", "HELIOPOLIS", "AVARIS", "MENDES", "TANIS"];
/** Every value of `AmunRePurchaseKind`. */
export const AmunRePurchaseKindValues = ["TOMB_TILES", "FAVOUR_CARDS", "FARMERS", "STONES"];
/** Every value of `AmunReRegion`. */
export const AmunReRegionValues = ["UPPER", "LOWER"];
/** Every value of `AmunReRiver`. */
export const AmunReRiverValues = ["NILE", "BORDER"];
/** Every value of `AmunReStatue`. */
export const AmunReStatueValues = ["HORUS", "BASTET", "OSIRIS", "SET", "ISIS", "SOBEK", "THOTH", "PTAH"];
/** Every value of `AmunReTombTile`. */
export const AmunReTombTileValues = ["VP", "FARMER", "STONE", "FAVOUR_CARD", "GOLD"];
/** Every value of `ExpiryPolicy`. */
export const ExpiryPolicyValues = ["TAKEOVER", "ABANDON"];
/** Every value of `GameKind`. */
export const GameKindValues = ["IMHOTEP", "AMUN_RE"];
/** Every value of `GameStatus`. */
export const GameStatusValues = ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"];
/** Every value of `ImhotepCard`. */
export const ImhotepCardValues = ["ENTRANCE", "SARCOPHAGUS", "PAVED_PATH", "PYRAMID_DECORATION", "TEMPLE_DECORATION", "BURIAL_CHAMBER_DECORATION", "OBELISK_DECORATION", "STATUE", "LEVER", "HAMMER", "SAIL", "CHISEL"];
/** Every value of `ImhotepColour`. */
export const ImhotepColourValues = ["BLACK", "WHITE", "BROWN", "GRAY"];
/** Every value of `ImhotepPendingKind`. */
export const ImhotepPendingKindValues = ["TURN", "MARKET_TAKE", "MARKET_KEEP", "PYRAMID_CHOICE", "SHIP_BONUS", "LEVER_ORDER", "TEMPLE_CHOICE"];
/** Every value of `ImhotepPyramidId`. */
export const ImhotepPyramidIdValues = ["PYRAMID", "LEFT", "MIDDLE", "RIGHT"];
/** Every value of `ImhotepSide`. */
export const ImhotepSideValues = ["A", "B"];
/** Every value of `ImhotepSite`. */
export const ImhotepSiteValues = ["MARKET", "PYRAMIDS", "TEMPLE", "BURIAL_CHAMBER", "OBELISKS"];
/** Every value of `TimeControl`. */
export const TimeControlValues = ["MOVE", "BANK"];
