// Generated from schema.graphql by clients/typescript/generate.py: do not edit.
// Regenerate: .venv/bin/python clients/typescript/generate.py

/** Any JSON value (the GraphQL scalar ``JSON``). */
export type JSONValue =
  | string
  | number
  | boolean
  | null
  | JSONValue[]
  | { [key: string]: JSONValue };

/** An ISO 8601 date and time, as the GraphQL scalar ``DateTime`` is sent. */
export type DateTime = string;

/**
 * Exactly one member of `T` set, and set to a value (a GraphQL `@oneOf` input): every other
 * member must be absent, so `{}` or two members do not compile.
 */
export type OneOf<T> = {
  [K in keyof T]-?: { [P in K]-?: NonNullable<T[P]> } & { [P in Exclude<keyof T, K>]?: never };
}[keyof T];

/**
 * A stable error code (docs/API.md "Errors"): GraphQL `extensions.code`, REST `code`.
 */
export type ErrorCode =
  | "BAD_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "NOT_YOUR_TURN"
  | "ILLEGAL_ACTION"
  | "CONFLICT"
  | "GAME_NOT_ACTIVE"
  | "TABLE_FULL"
  | "RATE_LIMITED"
  | "UNKNOWN_DOCUMENT"
  | "UNAVAILABLE"
  | "INTERNAL";

/** Every value of `ErrorCode`. */
export const ErrorCodeValues: readonly ErrorCode[] = ["BAD_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "NOT_YOUR_TURN", "ILLEGAL_ACTION", "CONFLICT", "GAME_NOT_ACTIVE", "TABLE_FULL", "RATE_LIMITED", "UNKNOWN_DOCUMENT", "UNAVAILABLE", "INTERNAL"];

/** What `act` did. */
export interface ActResult {
  __typename?: "ActResult";
  /** The game right after the action (bots reply afterwards, in their own commands: watch `gameChanged` or poll `version`). */
  game: Game;
  /** The events of the command, as the caller may see them: the caller's own action (and the end of the game if it came); bots' moves are not among them. */
  events: Array<GameEvent>;
}

/** One action, typed: exactly one member, named after the game kind and the action (`imhotepPlaceStone`, `amunReBid`), with the action's parameters as fields. `act` plays it exactly as the same action sent as JSON in `action` (`actionCatalog` lists the same actions, with their JSON Schemas). */
export type ActionInput = OneOf<ActionInputMembers>;

/** The members of `ActionInput`: exactly one of them is sent. */
export interface ActionInputMembers {
  /** Imhotep: Take stones from the quarry (§6.1), the action `get_stones`. It has no parameters: send `true`. */
  imhotepGetStones?: boolean | null;
  /** Imhotep: Place a stone on a ship (§6.2), the action `place_stone`. */
  imhotepPlaceStone?: ImhotepPlaceStoneInput | null;
  /** Imhotep: Sail a ship to a site (§6.3), the action `sail`. */
  imhotepSail?: ImhotepSailInput | null;
  /** Imhotep: Play the Lever: sail a ship and choose the unloading order (§9.6), the action `play_lever`. */
  imhotepPlayLever?: ImhotepPlayLeverInput | null;
  /** Imhotep: Play the Hammer: take stones and place one (§9.6), the action `play_hammer`. */
  imhotepPlayHammer?: ImhotepPlayHammerInput | null;
  /** Imhotep: Play the Sail: place a stone and sail that ship (§9.6), the action `play_sail`. */
  imhotepPlaySail?: ImhotepPlaySailInput | null;
  /** Imhotep: Play the Chisel: place two stones (§9.6, C-5), the action `play_chisel`. */
  imhotepPlayChisel?: ImhotepPlayChiselInput | null;
  /** Imhotep: Pass (no other action is possible) (§6.5), the action `pass`. It has no parameters: send `true`. */
  imhotepPass?: boolean | null;
  /** Imhotep: Take a face-up market card (§8.1), the action `take_card`. */
  imhotepTakeCard?: ImhotepTakeCardInput | null;
  /** Imhotep: Take the face-down pair (§8.2), the action `take_pair`. It has no parameters: send `true`. */
  imhotepTakePair?: boolean | null;
  /** Imhotep: Keep one card of the pair (§8.2), the action `keep`. */
  imhotepKeep?: ImhotepKeepInput | null;
  /** Imhotep: Choose the pyramid for the stones (§8.4), the action `choose_pyramid`. */
  imhotepChoosePyramid?: ImhotepChoosePyramidInput | null;
  /** Imhotep: Place the bonus stone on a ship (§8.4), the action `bonus_place`. */
  imhotepBonusPlace?: ImhotepBonusPlaceInput | null;
  /** Imhotep: Decline the bonus stone (§8.4), the action `bonus_decline`. It has no parameters: send `true`. */
  imhotepBonusDecline?: boolean | null;
  /** Imhotep: Choose the unloading order (Lever) (§9.6, C-6), the action `unload_order`. */
  imhotepUnloadOrder?: ImhotepUnloadOrderInput | null;
  /** Imhotep: Take 1 point (§8.6), the action `take_point`. It has no parameters: send `true`. */
  imhotepTakePoint?: boolean | null;
  /** Imhotep: Take 2 stones from the quarry to the sled (§8.6), the action `take_stones`. It has no parameters: send `true`. */
  imhotepTakeStones?: boolean | null;
  /** Amun-Re: Bid on a province (R9.6), the action `bid`. */
  amunReBid?: AmunReBidInput | null;
  /** Amun-Re: Sell a Favour card for 1 gold (R7.3), the action `sell`. */
  amunReSell?: AmunReSellInput | null;
  /** Amun-Re: Sell a Favour card to pay your bid (R9.8, C-3), the action `sell_for_payment`. */
  amunReSellForPayment?: AmunReSellForPaymentInput | null;
  /** Amun-Re: Buy Favour cards (R10.4), the action `buy_favour_cards`. */
  amunReBuyFavourCards?: AmunReBuyFavourCardsInput | null;
  /** Amun-Re: Buy farmers (R7.6), the action `buy_farmers`. */
  amunReBuyFarmers?: AmunReBuyFarmersInput | null;
  /** Amun-Re: Buy pyramid stones (R7.7), the action `buy_stones`. */
  amunReBuyStones?: AmunReBuyStonesInput | null;
  /** Amun-Re: Place a bought farmer (R7.6), the action `place_farmer`. */
  amunRePlaceFarmer?: AmunRePlaceFarmerInput | null;
  /** Amun-Re: Place a bought stone (R7.7), the action `place_stone`. */
  amunRePlaceStone?: AmunRePlaceStoneInput | null;
  /** Amun-Re: Play the Architect: a free stone (R7.5), the action `play_architect`. */
  amunRePlayArchitect?: AmunRePlayArchitectInput | null;
  /** Amun-Re: Play the Extra Farmer: a free farmer (R7.5), the action `play_extra_farmer`. */
  amunRePlayExtraFarmer?: AmunRePlayExtraFarmerInput | null;
  /** Amun-Re: End your Market turn (R10.5), the action `end_market_turn`. It has no parameters: send `true`. */
  amunReEndMarketTurn?: boolean | null;
  /** Amun-Re: Mark a Favour card for sale (private) (R11.2), the action `mark_for_sale`. */
  amunReMarkForSale?: AmunReMarkForSaleInput | null;
  /** Amun-Re: Set the Offering adjustment (private) (R11.2), the action `set_adjustment`. */
  amunReSetAdjustment?: AmunReSetAdjustmentInput | null;
  /** Amun-Re: Commit gold to the Offering (secret) (R11.2), the action `commit_gold`. */
  amunReCommitGold?: AmunReCommitGoldInput | null;
  /** Amun-Re: Steal from the Offering (C-8, R16.4.2), the action `commit_theft`. */
  amunReCommitTheft?: AmunReCommitTheftInput | null;
  /** Amun-Re: Take a Favour card as a gift (R11.8), the action `take_favour_card`. It has no parameters: send `true`. */
  amunReTakeFavourCard?: boolean | null;
  /** Amun-Re: Take a farmer as a gift (R11.8), the action `take_farmer`. */
  amunReTakeFarmer?: AmunReTakeFarmerInput | null;
  /** Amun-Re: Take a stone as a gift (R11.8), the action `take_stone`. */
  amunReTakeStone?: AmunReTakeStoneInput | null;
  /** Amun-Re: Forfeit your remaining gifts (R11.8), the action `forfeit`. It has no parameters: send `true`. */
  amunReForfeit?: boolean | null;
  /** Amun-Re: End your gift turn (R11.8), the action `end_gift_turn`. It has no parameters: send `true`. */
  amunReEndGiftTurn?: boolean | null;
  /** Amun-Re: Play Exceptional Harvest (R12.2), the action `play_exceptional_harvest`. */
  amunRePlayExceptionalHarvest?: AmunRePlayExceptionalHarvestInput | null;
  /** Amun-Re: Play Fixed Income (R12.2), the action `play_fixed_income`. */
  amunRePlayFixedIncome?: AmunRePlayFixedIncomeInput | null;
  /** Amun-Re: End your Harvest turn (R12.5), the action `end_harvest_turn`. It has no parameters: send `true`. */
  amunReEndHarvestTurn?: boolean | null;
  /** Amun-Re: Sell the marked cards (secret until reveal) (R15.1), the action `final_sale`. It has no parameters: send `true`. */
  amunReFinalSale?: boolean | null;
  /** Amun-Re: Buy Tomb tiles (R16.1.2), the action `buy_tomb_tiles`. */
  amunReBuyTombTiles?: AmunReBuyTombTilesInput | null;
  /** Amun-Re: Discard a Favour card (Thoth) (R10.5a, C-4), the action `thoth_discard`. */
  amunReThothDiscard?: AmunReThothDiscardInput | null;
  /** Amun-Re: Use Horus on a province (R10.7), the action `use_horus`. */
  amunReUseHorus?: AmunReUseHorusInput | null;
  /** Amun-Re: Play Afterlife: draw Tomb tiles (R16.1), the action `play_afterlife_draw`. It has no parameters: send `true`. */
  amunRePlayAfterlifeDraw?: boolean | null;
  /** Amun-Re: Play Afterlife: place a Tomb tile (R16.1), the action `play_afterlife_place`. */
  amunRePlayAfterlifePlace?: AmunRePlayAfterlifePlaceInput | null;
  /** Amun-Re: Play Glory: buy victory points (R16.4.1), the action `play_glory`. */
  amunRePlayGlory?: AmunRePlayGloryInput | null;
  /** Amun-Re: Place a Tomb tile (R16.1.4), the action `place_tomb_tile`. */
  amunRePlaceTombTile?: AmunRePlaceTombTileInput | null;
  /** Amun-Re: Discard a Favour card towards a Tomb tile (R16.1.5), the action `discard_card_for_tomb`. */
  amunReDiscardCardForTomb?: AmunReDiscardCardForTombInput | null;
  /** Amun-Re: Discard a Tomb tile towards another (R16.1.5), the action `discard_tile_for_tomb`. */
  amunReDiscardTileForTomb?: AmunReDiscardTileForTombInput | null;
  /** Amun-Re: Play Popularity (R16.4.3), the action `play_popularity`. */
  amunRePlayPopularity?: AmunRePlayPopularityInput | null;
  /** Amun-Re: Play Export (R16.4.4), the action `play_export`. */
  amunRePlayExport?: AmunRePlayExportInput | null;
}

/** One parameter of an action. */
export interface ActionParameter {
  __typename?: "ActionParameter";
  /** Its key in the action object. */
  name: string;
  /** Its JSON type: "string", "integer", "boolean", "array" or "object". */
  type: string;
  /** What it means. */
  description: string;
  /** The closed set of values it takes; null when the set is open. */
  allowed: Array<JSONValue> | null;
  /** The least integer it takes, if any. */
  minimum: number | null;
  /** The greatest integer it takes, if any. */
  maximum: number | null;
  /** Its JSON Schema. */
  schema: JSONValue;
}

/** One action of a game kind, as `act` accepts it. */
export interface ActionSpec {
  __typename?: "ActionSpec";
  /** The action's `type`, e.g. "place_stone". */
  name: string;
  /** A short human label. */
  label: string;
  /** The rule it implements, e.g. "§6.2". */
  rule: string;
  /** Its parameters, every one required; no other key is accepted. */
  parameters: Array<ActionParameter>;
  /** The JSON Schema (draft 2020-12) of the action. */
  schema: JSONValue;
}

/** The Auction (§9): null outside the auction and resolution phases. */
export interface AmunReAuction {
  __typename?: "AmunReAuction";
  /** The province cards revealed this round, in reveal order. */
  cards: Array<AmunReAuctionCard>;
  /** Per seat: its bid status (R9.3). */
  status: Array<AmunReBidStatus>;
  /** The seat whose turn it is in this phase; null when nobody's (between turns). */
  turn: number | null;
}

/** A province card up for auction this round (R9.1, R9.3). */
export interface AmunReAuctionCard {
  __typename?: "AmunReAuctionCard";
  /** The province auctioned. */
  province: AmunReProvinceId;
  /** The seat holding the standing bid; null with no scribe. */
  standing: number | null;
  /** The standing bid was placed with a Protection card (R9.4). */
  protected: boolean;
  /** The bid value nobody may bid (the space above a protected standing bid, R9.4); null when none. */
  blocked: number | null;
  /** The scribes on the card. */
  scribes: Array<AmunReScribe>;
}

/** A bank of the Nile (§5.1). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. WEST is "west"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReBank = "WEST" | "EAST";

/** Every value of `AmunReBank`. */
export const AmunReBankValues: readonly AmunReBank[] = ["WEST", "EAST"];

/** The parameters of Amun-Re: Bid on a province (R9.6), the action `bid`. */
export interface AmunReBidInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
  /** A space of the bid track (§5.2): one of 0, 1, 3, 6, 10, 15, 21, 28, 36. */
  value: number;
  /** Play a Bribe card with the bid (R9.5). */
  bribe: boolean;
  /** Play a Protection card with the bid (R9.4). */
  protection: boolean;
}

/** A player's status in the Auction (R9.3). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. NEW is "new"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReBidStatus = "NEW" | "STANDING" | "OUTBID";

/** Every value of `AmunReBidStatus`. */
export const AmunReBidStatusValues: readonly AmunReBidStatus[] = ["NEW", "STANDING", "OUTBID"];

/** The parameters of Amun-Re: Buy farmers (R7.6), the action `buy_farmers`. */
export interface AmunReBuyFarmersInput {
  /** How many farmers to buy (§5.3: n(n+1)/2 gold): at least 1. */
  count: number;
}

/** The parameters of Amun-Re: Buy Favour cards (R10.4), the action `buy_favour_cards`. */
export interface AmunReBuyFavourCardsInput {
  /** How many Favour cards to buy (§5.3: n(n+1)/2 gold): at least 1. */
  count: number;
}

/** The parameters of Amun-Re: Buy pyramid stones (R7.7), the action `buy_stones`. */
export interface AmunReBuyStonesInput {
  /** How many stones to buy (§5.3: n(n+1)/2 gold): at least 1. */
  count: number;
}

/** The parameters of Amun-Re: Buy Tomb tiles (R16.1.2), the action `buy_tomb_tiles`. */
export interface AmunReBuyTombTilesInput {
  /** How many Tomb tiles to buy (§5.3: n(n+1)/2 gold): at least 1. */
  count: number;
}

/** A kind of Favour card (§5.5; the modules' cards only with their module on); the catalog (`catalog(kind: AMUN_RE)`) has its text. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. PROTECTION is "protection"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReCard = "PROTECTION" | "BRIBE" | "ARCHITECT" | "EXTRA_FARMER" | "OFFERING_ADJUSTMENT" | "EXCEPTIONAL_HARVEST" | "FIXED_INCOME" | "SCRIBE_MASTER" | "FARMER_MASTER" | "BANK_SCHEME" | "RIVER_SCHEME" | "REGION_SCHEME" | "AFTERLIFE" | "TRIBUTE" | "PHARAOHS_BLESSING" | "GLORY" | "GREED" | "POPULARITY" | "EXPORT";

/** Every value of `AmunReCard`. */
export const AmunReCardValues: readonly AmunReCard[] = ["PROTECTION", "BRIBE", "ARCHITECT", "EXTRA_FARMER", "OFFERING_ADJUSTMENT", "EXCEPTIONAL_HARVEST", "FIXED_INCOME", "SCRIBE_MASTER", "FARMER_MASTER", "BANK_SCHEME", "RIVER_SCHEME", "REGION_SCHEME", "AFTERLIFE", "TRIBUTE", "PHARAOHS_BLESSING", "GLORY", "GREED", "POPULARITY", "EXPORT"];

/** A number of copies of one Favour card. */
export interface AmunReCardCount {
  __typename?: "AmunReCardCount";
  /** The card. */
  card: AmunReCard;
  /** How many copies. */
  count: number;
}

/** The parameters of Amun-Re: Commit gold to the Offering (secret) (R11.2), the action `commit_gold`. */
export interface AmunReCommitGoldInput {
  /** The gold offered: at least 1. */
  gold: number;
}

/** The parameters of Amun-Re: Steal from the Offering (C-8, R16.4.2), the action `commit_theft`. */
export interface AmunReCommitTheftInput {
  /** Play a Greed card with the theft (R16.4.2). */
  greed: boolean;
}

/** Who has committed (Offering or final sale), not what (R11.1, R15.1). */
export interface AmunReCommitments {
  __typename?: "AmunReCommitments";
  /** Per seat: it has committed (the content stays secret). */
  committed: Array<boolean>;
}

/** The kind of decision the game waits for (decision lists §9.8, §10.5, §11.6, R12.2, R15.6), e.g. place_stone inside a Market turn. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. BID is "bid"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReDecision = "BID" | "SELL_FOR_PAYMENT" | "MARKET_TURN" | "COMMIT" | "GIFT_COLLECTION" | "HARVEST_TURN" | "FINAL_SALE" | "PLACE_FARMER" | "PLACE_STONE" | "THOTH_DISCARD" | "TOMB_DISCARD" | "PLACE_TOMB_TILE";

/** Every value of `AmunReDecision`. */
export const AmunReDecisionValues: readonly AmunReDecision[] = ["BID", "SELL_FOR_PAYMENT", "MARKET_TURN", "COMMIT", "GIFT_COLLECTION", "HARVEST_TURN", "FINAL_SALE", "PLACE_FARMER", "PLACE_STONE", "THOTH_DISCARD", "TOMB_DISCARD", "PLACE_TOMB_TILE"];

/** The parameters of Amun-Re: Discard a Favour card towards a Tomb tile (R16.1.5), the action `discard_card_for_tomb`. */
export interface AmunReDiscardCardForTombInput {
  /** A Favour card in your hand (§5.5). */
  card: AmunReCard;
}

/** The parameters of Amun-Re: Discard a Tomb tile towards another (R16.1.5), the action `discard_tile_for_tomb`. */
export interface AmunReDiscardTileForTombInput {
  /** A Tomb tile (§5.7). */
  tile: AmunReTombTile;
}

/** The end of the game (§15): null before it. */
export interface AmunReFinal {
  __typename?: "AmunReFinal";
  /** Gold per seat (public now, R15.5). */
  gold: Array<number>;
  /** Gold bonus VP per seat (R15.2). */
  goldBonus: Array<number>;
  /** Tomb VP per seat (R15.3). Afterlife module only. */
  tomb: Array<number> | null;
}

/** Gift collection after the Offering (R11.7, R11.8): null outside it. */
export interface AmunReGifts {
  __typename?: "AmunReGifts";
  /** The seats in collection order (offerers by rank, then thieves). */
  order: Array<number>;
  /** The seat whose turn it is in this phase; null when nobody's (between turns). */
  turn: number | null;
  /** Gifts the collecting seat has left. */
  giftsLeft: number;
  /** Gifts per seat (R11.7). */
  gifts: Array<number>;
  /** Items discarded so far for an extra Tomb placement (0-2, R16.1.5). Afterlife module only. */
  tombDiscardsMade: number | null;
  /** Farmers or stones won that must be placed now (R16.1.4). */
  toPlace: AmunRePlacement | null;
}

/** A green card played on a province in this Harvest (R12.2). */
export interface AmunReGreenCard {
  __typename?: "AmunReGreenCard";
  /** The province it was played on. */
  province: AmunReProvinceId;
  /** The green card. */
  card: AmunReCard;
}

/** The Harvest (§12): null outside it. */
export interface AmunReHarvest {
  __typename?: "AmunReHarvest";
  /** The seat whose turn it is in this phase; null when nobody's (between turns). */
  turn: number | null;
  /** The green cards played so far in this Harvest. */
  green: Array<AmunReGreenCard>;
}

/** Full view only (after the game): the piles' orders, hidden during play (§17). */
export interface AmunReHidden {
  __typename?: "AmunReHidden";
  /** The Favour draw pile, top first. */
  drawPile: Array<AmunReCard>;
  /** The province deck, top first. */
  provinceDeck: Array<AmunReProvinceId>;
  /** The statue deck, top first. Statues module only. */
  statueDeck: Array<AmunReStatue> | null;
  /** The tomb stack, top first. Afterlife module only. */
  tombStack: Array<AmunReTombTile> | null;
}

/** The parameters of Amun-Re: Mark a Favour card for sale (private) (R11.2), the action `mark_for_sale`. */
export interface AmunReMarkForSaleInput {
  /** A Favour card in your hand (§5.5). */
  card: AmunReCard;
}

/** The Market phase (§10): null outside it. */
export interface AmunReMarket {
  __typename?: "AmunReMarket";
  /** The seat whose turn it is in this phase; null when nobody's (between turns). */
  turn: number | null;
  /** The kind bought last in this turn (R10.2: kinds are bought in order); null before the turn's first purchase. */
  lastPurchase: AmunRePurchaseKind | null;
  /** Favour cards bought in this turn (the card limit, R10.4). */
  cardsBought: number;
  /** Farmers or stones bought that must be placed now; null if none. */
  toPlace: AmunRePlacement | null;
  /** Ptah's second purchase was used this Market phase (R10.5). Afterlife/statues/promo modules only. */
  ptahUsed: boolean | null;
  /** Glory was played in this turn: no further purchase (R16.4.1). Afterlife/statues/promo modules only. */
  gloryPlayed: boolean | null;
  /** The player has played an Afterlife card this Market phase (R16.1.3). Afterlife/statues/promo modules only. */
  afterlifePlayed: boolean | null;
  /** The Thoth controller must discard a card now (R10.5a). Afterlife/statues/promo modules only. */
  thothDiscardDue: boolean | null;
}

/** The viewer's own commitment, before the reveal (secret to others, R11.1). */
export interface AmunReOffer {
  __typename?: "AmunReOffer";
  /** Gold or Theft. */
  offer: AmunReOfferKind;
  /** The gold offered (0 for a Theft). */
  gold: number;
}

/** What a player offered (R11.2): gold or Theft. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. GOLD is "gold"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReOfferKind = "GOLD" | "THEFT";

/** Every value of `AmunReOfferKind`. */
export const AmunReOfferKindValues: readonly AmunReOfferKind[] = ["GOLD", "THEFT"];

/** The current Offering tile (§5.4, R11.5): it fixes Harvest income and temple VP. */
export interface AmunReOfferingTile {
  __typename?: "AmunReOfferingTile";
  /** The tile, 1-4. */
  tile: number;
  /** Gold per farmer at the Harvest. */
  goldPerFarmer: number;
  /** It shows a camel: caravans pay at the Harvest. */
  camel: boolean;
  /** VP per temple at a kingdom scoring (R13.5). */
  templeVp: number;
}

/** The table options the game was created with (§2). */
export interface AmunReOptions {
  __typename?: "AmunReOptions";
  /** Bank majority is scored per province (R13.6b), not per player. */
  classicBankMajority: boolean;
  /** Farmers score no VP at kingdom scoring (R13.4 skipped). */
  noFarmerPoints: boolean;
  /** The Afterlife module (§16.1) option is on (§2). */
  afterlife: boolean;
  /** The Statues module (§16.2) option is on (§2). */
  statues: boolean;
  /** The Pharaoh module (§16.3) option is on (§2). */
  pharaoh: boolean;
  /** The promo Favour cards module (§16.4) option is on (§2). */
  promoFavours: boolean;
}

/** Pharaoh module (§16.3). */
export interface AmunRePharaoh {
  __typename?: "AmunRePharaoh";
  /** Where the Pharaoh figure stands; null in the reserve. */
  province: AmunReProvinceId | null;
}

/** A phase of the game (§8): setup, then per round auction, resolution (R9.8), market, offering, gifts (R11.8), harvest; final_sale (R15.1) and over at the end. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. SETUP is "setup"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunRePhase = "SETUP" | "AUCTION" | "RESOLUTION" | "MARKET" | "OFFERING" | "GIFTS" | "HARVEST" | "SCORED" | "BETWEEN" | "FINAL_SALE" | "OVER";

/** Every value of `AmunRePhase`. */
export const AmunRePhaseValues: readonly AmunRePhase[] = ["SETUP", "AUCTION", "RESOLUTION", "MARKET", "OFFERING", "GIFTS", "HARVEST", "SCORED", "BETWEEN", "FINAL_SALE", "OVER"];

/** The parameters of Amun-Re: Place a bought farmer (R7.6), the action `place_farmer`. */
export interface AmunRePlaceFarmerInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Place a bought stone (R7.7), the action `place_stone`. */
export interface AmunRePlaceStoneInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Place a Tomb tile (R16.1.4), the action `place_tomb_tile`. */
export interface AmunRePlaceTombTileInput {
  /** A Tomb tile (§5.7). */
  tile: AmunReTombTile;
  /** A row of the tomb, 1 is the base (R16.1.4): at least 1, at most 5. */
  row: number;
  /** A position in that row, from 1 (R16.1.4): at least 1, at most 5. */
  col: number;
}

/** Pieces bought or won that must be placed now. */
export interface AmunRePlacement {
  __typename?: "AmunRePlacement";
  /** What must be placed (farmers or stones). */
  kind: AmunRePurchaseKind;
  /** How many are left to place. */
  count: number;
}

/** The parameters of Amun-Re: Play Afterlife: place a Tomb tile (R16.1), the action `play_afterlife_place`. */
export interface AmunRePlayAfterlifePlaceInput {
  /** A Tomb tile (§5.7). */
  tile: AmunReTombTile;
  /** A row of the tomb, 1 is the base (R16.1.4): at least 1, at most 5. */
  row: number;
  /** A position in that row, from 1 (R16.1.4): at least 1, at most 5. */
  col: number;
}

/** The parameters of Amun-Re: Play the Architect: a free stone (R7.5), the action `play_architect`. */
export interface AmunRePlayArchitectInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Play Exceptional Harvest (R12.2), the action `play_exceptional_harvest`. */
export interface AmunRePlayExceptionalHarvestInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Play Export (R16.4.4), the action `play_export`. */
export interface AmunRePlayExportInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Play the Extra Farmer: a free farmer (R7.5), the action `play_extra_farmer`. */
export interface AmunRePlayExtraFarmerInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Play Fixed Income (R12.2), the action `play_fixed_income`. */
export interface AmunRePlayFixedIncomeInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Play Glory: buy victory points (R16.4.1), the action `play_glory`. */
export interface AmunRePlayGloryInput {
  /** The VP bought (§5.3 price): at least 1, at most 3. */
  vp: number;
}

/** The parameters of Amun-Re: Play Popularity (R16.4.3), the action `play_popularity`. */
export interface AmunRePlayPopularityInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** One seat: public facts for everyone, secrets (gold, hand faces) only where R7.9 allows. */
export interface AmunRePlayer {
  __typename?: "AmunRePlayer";
  /** A seat number, 0-based in seating order (the index in `players`). */
  seat: number;
  /** Victory points so far (public). */
  vp: number;
  /** Number of Favour cards in hand (public; the Theft card is none). */
  handCount: number;
  /** The provinces the seat controls, in board order. */
  provinces: Array<AmunReProvinceId>;
  /** Scribes neither on a province nor bidding (of 3). */
  scribesFree: number;
  /** The seat holds its Theft card (always true: it is never lost). */
  theftCard: boolean;
  /** Gold: only for the viewer himself, at the end (R15.5) or in the full view; null otherwise. */
  gold: number | null;
  /** The Favour cards in hand, sorted, a card held twice listed twice: only for the viewer himself or in the full view; null otherwise (R7.9). */
  hand: Array<AmunReCard> | null;
  /** Statue cards held (§16.2). Statues module only. */
  statueCards: Array<AmunReStatue> | null;
  /** Pharaoh tokens held (R16.3.2). Pharaoh module only. */
  pharaohTokens: number | null;
  /** Tomb tiles in the seat's collection (R16.1.2, faces secret). Afterlife module only. */
  collectionCount: number | null;
  /** The tomb (R16.1.4): rows base first (5 positions, then 4 … 1), a tile or null per position. Afterlife module only. */
  tomb: Array<Array<AmunReTombTile | null>> | null;
  /** The collection's tiles by reward type. Afterlife, full view only. */
  collection: Array<AmunReTileCount> | null;
}

/** A province revealed at least once: printed facts (§5.1) and board state. */
export interface AmunReProvince {
  __typename?: "AmunReProvince";
  /** Which province (the same in every game). */
  id: AmunReProvinceId;
  /** Display name, e.g. "Abu". */
  name: string;
  /** West or East of the Nile. */
  bank: AmunReBank;
  /** Upper (south) or Lower (north) Egypt. */
  region: AmunReRegion;
  /** On the Nile or at the border. */
  river: AmunReRiver;
  /** Farmer fields (0-6). */
  fields: number;
  /** Favour cards its controller may buy per Market turn (R10.4). */
  cardLimit: number;
  /** Temples (VP at kingdom scoring, R13.5). */
  temples: number;
  /** Gold its mine pays at every Harvest (0: none). */
  mine: number;
  /** Gold its caravan pays at a Harvest under a camel tile (0: none). */
  caravan: number;
  /** The immediate bonus (R9.8). */
  bonus: AmunReProvinceBonus;
  /** The controlling seat (R3.7); null when nobody controls it. */
  owner: number | null;
  /** Farmers on its fields. */
  farmers: number;
  /** Loose stones (3 build a pyramid, R7.7). */
  stones: number;
  /** Pyramids built in it. */
  pyramids: number;
  /** Its card is up for auction in this round's Auction. */
  upForAuction: boolean;
}

/** The immediate bonus of a province, taken by the player who wins it (R9.8). */
export interface AmunReProvinceBonus {
  __typename?: "AmunReProvinceBonus";
  /** Stones placed into the province. */
  stones: number;
  /** Gold from the bank. */
  gold: number;
  /** Favour cards drawn (R7.4). */
  favourCards: number;
}

/** A province (§5.1), the same 15 in every game. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. ABU is "abu"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReProvinceId = "ABU" | "EDFU" | "KHARGA" | "ABYDOS" | "MEMPHIS" | "SAIS" | "DAMANHUR" | "BUTO" | "BERENIKE" | "SAWU" | "AMARNA" | "HELIOPOLIS" | "AVARIS" | "MENDES" | "TANIS";

/** Every value of `AmunReProvinceId`. */
export const AmunReProvinceIdValues: readonly AmunReProvinceId[] = ["ABU", "EDFU", "KHARGA", "ABYDOS", "MEMPHIS", "SAIS", "DAMANHUR", "BUTO", "BERENIKE", "SAWU", "AMARNA", "HELIOPOLIS", "AVARIS", "MENDES", "TANIS"];

/** A kind of Market purchase (R10.2), in the order they must be bought. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. TOMB_TILES is "tomb_tiles"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunRePurchaseKind = "TOMB_TILES" | "FAVOUR_CARDS" | "FARMERS" | "STONES";

/** Every value of `AmunRePurchaseKind`. */
export const AmunRePurchaseKindValues: readonly AmunRePurchaseKind[] = ["TOMB_TILES", "FAVOUR_CARDS", "FARMERS", "STONES"];

/** A region of Egypt (§5.1): Upper (south) or Lower (north). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. UPPER is "upper"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReRegion = "UPPER" | "LOWER";

/** Every value of `AmunReRegion`. */
export const AmunReRegionValues: readonly AmunReRegion[] = ["UPPER", "LOWER"];

/** One seat's offer after the reveal (R11.3, public). */
export interface AmunReRevealedOffer {
  __typename?: "AmunReRevealedOffer";
  /** A seat number, 0-based in seating order (the index in `players`). */
  seat: number;
  /** Gold or Theft. */
  offer: AmunReOfferKind;
  /** The gold offered (0 for a Theft). */
  gold: number;
}

/** A province's river class (§5.1): on the Nile, or at the border (desert or sea). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. NILE is "nile"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReRiver = "NILE" | "BORDER";

/** Every value of `AmunReRiver`. */
export const AmunReRiverValues: readonly AmunReRiver[] = ["NILE", "BORDER"];

/** One player's kingdom scoring breakdown (R13.8, public). */
export interface AmunReScoringLine {
  __typename?: "AmunReScoringLine";
  /** A seat number, 0-based in seating order (the index in `players`). */
  seat: number;
  /** VP for pyramids (R13.2). */
  pyramids: number;
  /** VP for the weakest province (R13.3). */
  weakest: number;
  /** VP for farmers (R13.4). */
  farmers: number;
  /** VP for temples (R13.5). */
  temples: number;
  /** VP for the West bank majority (R13.6). */
  west: number;
  /** VP for the East bank majority (R13.6). */
  east: number;
  /** VP for Schemes (R13.7). */
  schemes: number;
  /** VP of this scoring in all. */
  total: number;
  /** The Scheme cards that scored (then discarded, R13.7). */
  schemesScored: Array<AmunReCard>;
}

/** A scribe on a province card in the Auction (R9.3). */
export interface AmunReScribe {
  __typename?: "AmunReScribe";
  /** The scribe's owner. A seat number, 0-based in seating order (the index in `players`). */
  seat: number;
  /** The bid: the value of its space (§5.2). */
  value: number;
  /** It is the card's standing (highest) bid; otherwise outbid. */
  standing: boolean;
}

/** The parameters of Amun-Re: Sell a Favour card to pay your bid (R9.8, C-3), the action `sell_for_payment`. */
export interface AmunReSellForPaymentInput {
  /** A Favour card in your hand (§5.5). */
  card: AmunReCard;
}

/** The parameters of Amun-Re: Sell a Favour card for 1 gold (R7.3), the action `sell`. */
export interface AmunReSellInput {
  /** A Favour card in your hand (§5.5). */
  card: AmunReCard;
}

/** The parameters of Amun-Re: Set the Offering adjustment (private) (R11.2), the action `set_adjustment`. */
export interface AmunReSetAdjustmentInput {
  /** +3 or -3 on the Offering total: one of 3, -3. */
  sign: number;
}

/** An Amun-Re game as the caller may see it (typed `Game.state`, §17). */
export interface AmunReState {
  __typename?: "AmunReState";
  /** Always "amun_re". */
  game: string;
  /** The seat this view is for; null for a spectator. */
  viewer: number | null;
  /** The round, 1-6 (0 before the first). */
  round: number;
  /** 1 (Old Kingdom, rounds 1-3), 2 (New Kingdom); 0 before. */
  kingdom: number;
  /** The current phase. */
  phase: AmunRePhase;
  /** The seat holding the Amun-Re token. */
  startPlayer: number;
  /** The seats that must decide now. */
  toAct: Array<number>;
  /** What the game waits for (public); null when nothing. */
  decision: AmunReDecision | null;
  /** The table options (§2). */
  options: AmunReOptions;
  /** The bid values of the 9 spaces (§5.2), lowest first. */
  bidTrack: Array<number>;
  /** The current Offering tile; null before the first Offering. */
  offeringTile: AmunReOfferingTile | null;
  /** The provinces revealed at least once (the unrevealed set stays secret), in board order. */
  provinces: Array<AmunReProvince>;
  /** The Auction; null outside the auction and resolution phases. */
  auction: AmunReAuction | null;
  /** The Market phase; null outside it. */
  market: AmunReMarket | null;
  /** Who has committed in the Offering (R11.1); null outside it. */
  offering: AmunReCommitments | null;
  /** The offers of the last Offering, per seat, after the reveal (R11.3); null before the first reveal and while committing. */
  lastOffering: Array<AmunReRevealedOffer> | null;
  /** Gift collection (R11.8); null outside it. */
  gifts: AmunReGifts | null;
  /** The Harvest (§12); null outside it. */
  harvest: AmunReHarvest | null;
  /** Who has committed in the final sale (R15.1); null outside it. */
  finalSale: AmunReCommitments | null;
  /** Every seat, in seat order. */
  players: Array<AmunRePlayer>;
  /** The viewer's own secrets; null for a spectator. */
  you: AmunReYou | null;
  /** The Favour discard pile, oldest first (face up, R7.9). */
  discardPile: Array<AmunReCard>;
  /** Cards in the face-down Favour draw pile (R7.4). */
  drawPileCount: number;
  /** Province cards left in the province deck. */
  provinceDeckCount: number;
  /** The breakdown of the last kingdom scoring (R13.8); null before the first. */
  lastScoring: Array<AmunReScoringLine> | null;
  /** The end-of-game scoring (§15); null until the game is over. */
  final: AmunReFinal | null;
  /** The winning seats (R15.4); empty until the game is over. */
  winners: Array<number>;
  /** Rank per seat, 1 = first (ties share a rank); empty until the game is over. */
  ranks: Array<number>;
  /** The hidden piles: only in the full view (after the game). */
  hidden: AmunReHidden | null;
  /** Statues module only (§16.2). */
  statues: AmunReStatues | null;
  /** Pharaoh module only (§16.3). */
  pharaoh: AmunRePharaoh | null;
  /** Tomb tiles left in the tomb stack. Afterlife module only. */
  tombStackCount: number | null;
  /** The tomb discard pile, oldest first (face up). Afterlife module only. */
  tombDiscard: Array<AmunReTombTile> | null;
}

/** A statue (Statues module, §5.6, §16.2). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. HORUS is "horus"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReStatue = "HORUS" | "BASTET" | "OSIRIS" | "SET" | "ISIS" | "SOBEK" | "THOTH" | "PTAH";

/** Every value of `AmunReStatue`. */
export const AmunReStatueValues: readonly AmunReStatue[] = ["HORUS", "BASTET", "OSIRIS", "SET", "ISIS", "SOBEK", "THOTH", "PTAH"];

/** Who holds a statue's card (R16.2.3). */
export interface AmunReStatueHolder {
  __typename?: "AmunReStatueHolder";
  /** The statue. */
  statue: AmunReStatue;
  /** The holding seat; null when nobody. */
  seat: number | null;
}

/** A statue standing in a province (R16.2.2). */
export interface AmunReStatuePlacement {
  __typename?: "AmunReStatuePlacement";
  /** The statue. */
  statue: AmunReStatue;
  /** Where it stands (it never moves). */
  province: AmunReProvinceId;
}

/** Statues module (§16.2). */
export interface AmunReStatues {
  __typename?: "AmunReStatues";
  /** The statues placed so far. */
  onBoard: Array<AmunReStatuePlacement>;
  /** The holder of every statue. */
  holders: Array<AmunReStatueHolder>;
  /** Statue cards left in the statue deck. */
  deckCount: number;
}

/** The parameters of Amun-Re: Take a farmer as a gift (R11.8), the action `take_farmer`. */
export interface AmunReTakeFarmerInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Take a stone as a gift (R11.8), the action `take_stone`. */
export interface AmunReTakeStoneInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The parameters of Amun-Re: Discard a Favour card (Thoth) (R10.5a, C-4), the action `thoth_discard`. */
export interface AmunReThothDiscardInput {
  /** A Favour card in your hand (§5.5). */
  card: AmunReCard;
}

/** A number of Tomb tiles of one reward type. */
export interface AmunReTileCount {
  __typename?: "AmunReTileCount";
  /** The tile's reward type. */
  tile: AmunReTombTile;
  /** How many tiles. */
  count: number;
}

/** The reward type of a Tomb tile (Afterlife module, §5.7, R16.1.4). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. VP is "vp"); the JSON view (`Game.state`) carries the domain id itself. */
export type AmunReTombTile = "VP" | "FARMER" | "STONE" | "FAVOUR_CARD" | "GOLD";

/** Every value of `AmunReTombTile`. */
export const AmunReTombTileValues: readonly AmunReTombTile[] = ["VP", "FARMER", "STONE", "FAVOUR_CARD", "GOLD"];

/** The parameters of Amun-Re: Use Horus on a province (R10.7), the action `use_horus`. */
export interface AmunReUseHorusInput {
  /** A province (§5.1). */
  province: AmunReProvinceId;
}

/** The viewer's own secrets (null for a spectator); the hand is in `players[viewer].hand`. */
export interface AmunReYou {
  __typename?: "AmunReYou";
  /** The viewer's seat. */
  seat: number;
  /** The viewer's gold. */
  gold: number;
  /** Cards of the pending secret commitment marked to be sold at the reveal (R11.2, R15.1). */
  markedForSale: Array<AmunReCardCount>;
  /** The Offering Adjustment committed: 0 (none), 3 or -3 (R11.2). */
  adjustment: number;
  /** The viewer's committed offer; null when not committed. */
  offer: AmunReOffer | null;
  /** The viewer's Tomb tile collection by reward type (R16.1.2). Afterlife module only. */
  collection: Array<AmunReTileCount> | null;
}

/** A new table (`createGame`). */
export interface CreateGameInput {
  /** Which game. */
  kind: GameKind;
  /** Number of seats, in the game's range (`gameKinds { minSeats maxSeats }`). */
  seats: number;
  /** Table options as a JSON object, named by each game's rules (docs/playing.md "Table options"); unknown or invalid options are BAD_INPUT. Null: the defaults. */
  options?: JSONValue | null;
  /** Makes the game deterministic (the same seed and actions give the same events) and unranked; hidden until the game is over. Omit it for a ranked game. */
  seed?: string | null;
}

/** What happens when a seat's time runs out (`clock.onExpiry`). */
export type ExpiryPolicy = "TAKEOVER" | "ABANDON";

/** Every value of `ExpiryPolicy`. */
export const ExpiryPolicyValues: readonly ExpiryPolicy[] = ["TAKEOVER", "ABANDON"];

/** Where a forked game (`forkGame`) comes from. */
export interface ForkSource {
  __typename?: "ForkSource";
  /** The game it was forked from. */
  gameId: string;
  /** The version of that game it starts from. */
  version: number;
  /** The seats whose view the fork of an unfinished game was dealt from (what they could not see was re-dealt); null for the fork of a finished game, which replays it exactly. */
  seats: Array<number> | null;
}

/** A game (a table) as the caller may see it: seats, status, the caller's view (`state` as JSON, `view` typed), its legal actions, the audit log and time travel. */
export interface Game extends Node {
  __typename?: "Game";
  /** The game's id (its global `Node` id too). */
  id: string;
  /** Which game. */
  kind: GameKind;
  /** Where the table is in its life. */
  status: GameStatus;
  /** The table options, complete (defaults filled in) as the rules normalised them at creation. */
  options: JSONValue;
  /** Number of the last event of the log as the caller may see it: an event private to another seat is not part of it (every event is, once the game is over). */
  version: number;
  /** Undo is allowed at this table (false: ranked play). */
  undoAllowed: boolean;
  /** The secret seed, revealed once the game is over (else null). */
  seed: string | null;
  /** The secret salt of the seed's commitment (hex), revealed with the seed once the game is over (else null; null too for games older than salts). */
  seedSalt: string | null;
  /** Commitment to the secret seed: hex SHA-256(salt || seed), salt the 32 bytes of seedSalt (domain/randomness.py; unsalted for games older than salts). */
  seedCommitment: string;
  /** The game will be rated (ratings and the leaderboard) when it finishes: two or more human players, each holding one seat, a seed nobody chose, not a fork, not an imported copy; free seats count as players to come (false: see unrankedReason). The ratings apply the same rule. */
  ranked: boolean;
  /** Why the game will not be rated: "the creator chose the seed", "a fork" or "an imported copy" (then it counts in no profile or statistic either), "fewer than two human players" or "a player holds several seats"; null for a ranked game. */
  unrankedReason: string | null;
  /** The version of the rules this game is played by (fixed at creation; `catalog(kind, rulesVersion)` gives its data). */
  rulesVersion: string;
  /** When the table was created (UTC). */
  createdAt: string;
  /** Time of the last event of the log as the caller may see it. */
  updatedAt: string;
  /** Every seat, in seat order, and who holds it. */
  seats: Array<Seat>;
  /** The caller's seat; null for spectators. */
  mySeat: number | null;
  /** Who must act now. */
  activeSeats: Array<number>;
  /** The table's clock now (time control, every seat's remaining time, deadline, thinking time and take-over); null for a table without a time control. */
  clock: GameClock | null;
  /** Replay: the clock right after event `version` (its `now` is the latest time the log had recorded then); null for a table without a time control. */
  clockAt: GameClock | null;
  /** The game state as the caller may see it. */
  state: JSONValue;
  /** The caller's view as typed GraphQL (the same information as `state`); null before the game starts. */
  view: GameView | null;
  /** Exactly the actions `act` accepts from the caller now. */
  legalActions: Array<JSONValue>;
  /** `legalActions` in the same order, each with a label and its type. */
  moves: Array<Move>;
  /** The public score track, by seat. */
  scores: Array<number>;
  /** The outcome; null until the game is finished. */
  result: GameResult | null;
  /** The audit log, as the caller may see it. */
  events: GameEventConnection;
  /** Whether the caller may take back its last action now, and why. */
  canUndo: UndoStatus;
  /** A pending request to take actions back. */
  undoRequest: UndoRequest | null;
  /** The game this sandbox was forked from. */
  forkedFrom: ForkSource | null;
  /** Replay: events after `after` with the state right after each, as the caller may see it (everything once the game is over). */
  replay: Array<ReplayStep>;
  /** Replay: the state right after event `version`; null, with a BAD_INPUT error on this field alone, for a version the game does not have. */
  stateAt: JSONValue | null;
  /** Replay: the typed view right after event `version` (the same information as `stateAt`); null before the game starts. */
  viewAt: GameView | null;
}

/** The arguments of `Game.clockAt`. */
export interface GameClockAtArgs {
  /** An event number of the caller's log (`GameEvent.version`, 1 = first). */
  version: number;
}

/** The arguments of `Game.events`. */
export interface GameEventsArgs {
  /** Page size, 0-200 (default 100). */
  first?: number | null;
  /** A cursor (`GameEventEdge.cursor`): the page starts after it. */
  after?: string | null;
}

/** The arguments of `Game.replay`. */
export interface GameReplayArgs {
  /** An event number of the caller's log: the steps start after it (0: from the first event). */
  after: number;
  /** Page size, 0-200 (default 100). */
  first?: number | null;
}

/** The arguments of `Game.stateAt`. */
export interface GameStateAtArgs {
  /** An event number of the caller's log (`GameEvent.version`, 1 = first). */
  version: number;
}

/** The arguments of `Game.viewAt`. */
export interface GameViewAtArgs {
  /** An event number of the caller's log (`GameEvent.version`, 1 = first). */
  version: number;
}

/** A game right after one event, as the caller may see it (`gameChanged`). */
export interface GameChange {
  __typename?: "GameChange";
  /** Number of the event in the caller's log (as `Game.version` right after it). */
  version: number;
  /** The game's status right after the event. */
  status: GameStatus;
  /** Who must act right after the event. */
  activeSeats: Array<number>;
  /** The caller's typed view right after the event (the same information as `state`); null before the game starts. */
  view: GameView | null;
  /** The caller's view right after the event. */
  state: JSONValue;
  /** Exactly the actions `act` accepts from the caller right after the event. */
  legalActions: Array<JSONValue>;
  /** The event, as the caller may see it. */
  event: GameEvent;
  /** A timed table's clock right after the event (its `now`: the event's time on the clock); null for a table without a time control. */
  clock: GameClock | null;
}

/** A timed table's clock: the time control and every seat's time. */
export interface GameClock {
  __typename?: "GameClock";
  /** How the clock runs. */
  mode: TimeControl;
  /** The time of each move (`MOVE`). */
  moveMs: number | null;
  /** Each seat's starting bank (`BANK`). */
  bankMs: number | null;
  /** Added to a seat's bank after each of its turns (`BANK`). */
  incrementMs: number | null;
  /** What a seat's expiry does. */
  onExpiry: ExpiryPolicy;
  /** The level of the bot that takes a seat over. */
  bot: string;
  /** The time the clock was read at (for `clockAt` and replays: the latest time the log had recorded then; null before the clock first ran). */
  now: string | null;
  /** The earliest deadline of a seat on the clock (null: nobody is). */
  deadline: string | null;
  /** Every seat's clock, by seat. */
  seats: Array<SeatClock>;
}

/** A page of games (Relay connection). */
export interface GameConnection {
  __typename?: "GameConnection";
  /** The page's games with cursors. */
  edges: Array<GameEdge>;
  /** The page's games. */
  nodes: Array<Game>;
  /** Where this page lies. */
  pageInfo: PageInfo;
  /** How many games match the filters, over every page (not this page alone). */
  totalCount: number;
}

/** A game of a page, with its cursor. */
export interface GameEdge {
  __typename?: "GameEdge";
  /** Pass as `after` to read the games after it. */
  cursor: string;
  /** The game. */
  node: Game;
}

/** One entry of a game's log, as the caller may see it. */
export interface GameEvent {
  __typename?: "GameEvent";
  /** The event's number in the game's log (1 = first; `Game.version` is the last). */
  version: number;
  /** When the event was recorded (UTC). */
  at: string;
  /** The seat the event is about; null for events no seat caused. */
  seat: number | null;
  /** The event type in snake_case (each game's rules spec names them). */
  type: string;
  /** The event's data, redacted for the caller (hidden information becomes a count or is left out). */
  data: JSONValue;
  /** True for a step nobody chose (the only legal option, applied at once). */
  automatic: boolean;
  /** The seat whose action recorded this event (null for table steps). */
  bySeat: number | null;
  /** Taken back by a later undo. */
  undone: boolean;
  /** SHA-256 sealing this event to the one before (see verifyLog). */
  hash: string;
}

/** A page of a game's log (Relay connection). */
export interface GameEventConnection {
  __typename?: "GameEventConnection";
  /** The page's events with cursors. */
  edges: Array<GameEventEdge>;
  /** The page's events. */
  nodes: Array<GameEvent>;
  /** Where this page lies. */
  pageInfo: PageInfo;
  /** Events of the log the caller may see, over all pages. */
  totalCount: number;
}

/** An event of a page, with its cursor. */
export interface GameEventEdge {
  __typename?: "GameEventEdge";
  /** Pass as `after` to read the events after it. */
  cursor: string;
  /** The event. */
  node: GameEvent;
}

/** A game the server plays; its rules version is `Game.rulesVersion`, its static data `catalog(kind)`, its actions `actionCatalog(kind)`. */
export type GameKind = "IMHOTEP" | "AMUN_RE";

/** Every value of `GameKind`. */
export const GameKindValues: readonly GameKind[] = ["IMHOTEP", "AMUN_RE"];

/** A game the server plays (`gameKinds`), as its package declares it. */
export interface GameKindInfo {
  __typename?: "GameKindInfo";
  /** The game's kind. */
  kind: GameKind;
  /** Its display name ("Amun-Re"). */
  name: string;
  /** One line for people choosing a game. */
  summary: string;
  /** The fewest seats a table of it may have. */
  minSeats: number;
  /** The most seats a table of it may have. */
  maxSeats: number;
  /** The rules version new games are created with (`Game.rulesVersion`). */
  rulesVersion: string;
  /** The URL path of the web client's board for it: an ES module exporting `drawBoard`, the game's own or, for a game that has none, the generic board (the JSON `state` and every legal action as a button). */
  boardModule: string;
  /** Whether `boardModule` is the game's own board (false: the generic one). */
  hasOwnBoard: boolean;
}

/** The outcome of a finished game. */
export interface GameResult {
  __typename?: "GameResult";
  /** Final score (points or VP) per seat. */
  scores: Array<number>;
  /** The winning seats (several on a tie). */
  winners: Array<number>;
  /** Rank per seat, 1 = first; tied seats share a rank. */
  ranks: Array<number>;
}

/** Where the points of finished games of one kind came from. */
export interface GameStatistics {
  __typename?: "GameStatistics";
  /** Which game. */
  kind: GameKind;
  /** Finished games counted. */
  games: number;
  /** Points by scoring source. */
  sources: Array<ScoreSource>;
}

/** Where a table is in its life. */
export type GameStatus = "OPEN" | "ACTIVE" | "FINISHED" | "ABANDONED";

/** Every value of `GameStatus`. */
export const GameStatusValues: readonly GameStatus[] = ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"];

/** A game as the read model keeps it: public facts only (what a spectator sees). */
export interface GameSummary {
  __typename?: "GameSummary";
  /** The game's id (`game(id:)`). */
  gameId: string;
  /** Which game. */
  kind: GameKind;
  /** Where the table is in its life. */
  status: GameStatus;
  /** The table options (as `Game.options`). */
  options: JSONValue;
  /** Every seat, in seat order. */
  seats: Array<SummarySeat>;
  /** Seats still free (0 once the game starts). */
  freeSeats: number;
  /** Whose turn it is. */
  activeSeats: Array<number>;
  /** The public score track, by seat. */
  scores: Array<number>;
  /** The winning seats; null until the game is finished. */
  winners: Array<number> | null;
  /** The game version this summary reflects: the number of the last event a spectator sees (a spectator's `Game.version`). */
  version: number;
  /** When the table was created (ISO 8601, UTC). */
  createdAt: string;
  /** Time of the last event a spectator sees (ISO 8601, UTC). */
  lastActivity: string;
  /** The game this one was forked from; null for an original game. */
  forkedFrom: string | null;
  /** The game will be rated when it finishes (the rule of `Game.ranked`: two or more human players, each holding one seat, a seed nobody chose, not a fork, not a copy). */
  ranked: boolean;
  /** Why it will not be: "the creator chose the seed", "a fork", "an imported copy", "fewer than two human players" or "a player holds several seats"; null for a ranked game. */
  unrankedReason: string | null;
}

/** A page of game summaries (Relay connection). */
export interface GameSummaryConnection {
  __typename?: "GameSummaryConnection";
  /** The page's summaries, with cursors. */
  edges: Array<GameSummaryEdge>;
  /** The page's summaries. */
  nodes: Array<GameSummary>;
  /** Where this page lies. */
  pageInfo: PageInfo;
  /** How many games match the filters, over every page (not this page alone). */
  totalCount: number;
}

/** A game summary of a page, with its cursor. */
export interface GameSummaryEdge {
  __typename?: "GameSummaryEdge";
  /** Pass as `after` to read the summaries after it. */
  cursor: string;
  /** The summary. */
  node: GameSummary;
}

/** A game's typed view, one member per game kind (select with `... on ImhotepState` / `... on AmunReState`): the same information as the JSON `state`, with enums for closed sets of domain ids (values: the id upper-cased). `discardPile` and `hidden { drawPile }` are lists of each game's own card enum: a query selecting them in both members aliases one of them. */
export type GameView = ImhotepState | AmunReState;

/** The parameters of Imhotep: Place the bonus stone on a ship (§8.4), the action `bonus_place`. */
export interface ImhotepBonusPlaceInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A slot of that ship, from 1 (§1.2): at least 1, at most 4. */
  slot: number;
}

/** The Burial chamber site (§8.7, §8.8). */
export interface ImhotepBurialChamber {
  __typename?: "ImhotepBurialChamber";
  /** Side of the Burial chamber board. */
  side: ImhotepSide;
  /** Seats of the stones in delivery order: 3 rows, column by column (the k-th, 0-based, lies in column k div 3, row k mod 3). */
  stones: Array<number>;
}

/** A kind of Imhotep market card (§1.4, §9); the catalog (`catalog(kind: IMHOTEP)`) has its colour and text. Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. ENTRANCE is "entrance"); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepCard = "ENTRANCE" | "SARCOPHAGUS" | "PAVED_PATH" | "PYRAMID_DECORATION" | "TEMPLE_DECORATION" | "BURIAL_CHAMBER_DECORATION" | "OBELISK_DECORATION" | "STATUE" | "LEVER" | "HAMMER" | "SAIL" | "CHISEL";

/** Every value of `ImhotepCard`. */
export const ImhotepCardValues: readonly ImhotepCard[] = ["ENTRANCE", "SARCOPHAGUS", "PAVED_PATH", "PYRAMID_DECORATION", "TEMPLE_DECORATION", "BURIAL_CHAMBER_DECORATION", "OBELISK_DECORATION", "STATUE", "LEVER", "HAMMER", "SAIL", "CHISEL"];

/** The parameters of Imhotep: Choose the pyramid for the stones (§8.4), the action `choose_pyramid`. */
export interface ImhotepChoosePyramidInput {
  /** A pyramid of side B (§8.4). */
  pyramid: ImhotepPyramidId;
}

/** A player's stone colour (§1.1, §3). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. BLACK is "black"); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepColour = "BLACK" | "WHITE" | "BROWN" | "GRAY";

/** Every value of `ImhotepColour`. */
export const ImhotepColourValues: readonly ImhotepColour[] = ["BLACK", "WHITE", "BROWN", "GRAY"];

/** The ship (id) docked at each site this round, null when the dock is free (§4). */
export interface ImhotepDocks {
  __typename?: "ImhotepDocks";
  /** Ship id docked at the Market. */
  market: number | null;
  /** Ship id docked at the Pyramids. */
  pyramids: number | null;
  /** Ship id docked at the Temple. */
  temple: number | null;
  /** Ship id docked at the Burial chamber. */
  burialChamber: number | null;
  /** Ship id docked at the Obelisks. */
  obelisks: number | null;
}

/** Points per seat of each final scoring step done so far (§13); null before its step. */
export interface ImhotepFinalScoring {
  __typename?: "ImhotepFinalScoring";
  /** Step F1: Burial chamber points per seat. */
  burialChamber: Array<number> | null;
  /** Step F2: Obelisks points per seat. */
  obelisks: Array<number> | null;
  /** Step F3: green decoration cards, points per seat. */
  decorations: Array<number> | null;
  /** Step F4: purple statue cards, points per seat. */
  statues: Array<number> | null;
  /** Step F5: unused blue cards (1 point each), per seat. */
  blueCards: Array<number> | null;
  /** Step F6, Wrath of the Pharaoh: penalty per seat (0 or -5). */
  wrath: Array<number> | null;
}

/** Only in the full view (after the game): what was hidden during play (§14). */
export interface ImhotepHidden {
  __typename?: "ImhotepHidden";
  /** The market draw pile, top first. */
  drawPile: Array<ImhotepCard>;
  /** The round cards not revealed, top first. */
  roundStack: Array<string>;
  /** The round card removed at setup (§3). */
  removedRoundCard: string | null;
}

/** The parameters of Imhotep: Keep one card of the pair (§8.2), the action `keep`. */
export interface ImhotepKeepInput {
  /** A market card (§1.4). */
  card: ImhotepCard;
}

/** The Market site (§8.1, §8.2, §9.2). */
export interface ImhotepMarket {
  __typename?: "ImhotepMarket";
  /** Side of the Market board. */
  side: ImhotepSide;
  /** The face-up slots in order (4 on side A, 3 on side B); null for a slot already taken. */
  faceUp: Array<ImhotepCard | null>;
  /** Cards on the face-down pair space (0-2; always 0 on side A). */
  pairCount: number;
  /** The face-down pair: only to the player deciding market_keep, or after the game (full view); null otherwise (§14). */
  pair: Array<ImhotepCard> | null;
}

/** The Obelisks site (§8.9, §8.10). Side A: heights (per seat). Side B: singles, towers, beside, tower_points. Fields of the other side are null. */
export interface ImhotepObelisks {
  __typename?: "ImhotepObelisks";
  /** Side of the Obelisks board. */
  side: ImhotepSide;
  /** Side A: the height of each seat's obelisk (stones), per seat. */
  heights: Array<number> | null;
  /** Side B: stones on each seat's single spaces (0-2), per seat. */
  singles: Array<number> | null;
  /** Side B: the seat owning each built tower space, in order. */
  towers: Array<number> | null;
  /** Side B: the seat of each tower built beside the board (3 points). */
  beside: Array<number> | null;
  /** Side B: the points of the tower spaces, in falling value. */
  towerPoints: Array<number> | null;
}

/** The table options the game was created with (§2). */
export interface ImhotepOptions {
  __typename?: "ImhotepOptions";
  /** The side of each site's board. */
  sides: ImhotepSides;
  /** The Wrath of the Pharaoh variant is on: at the end, a player who has not taken part in all four building sites loses 5 points (§13 F6). */
  wrathOfThePharaoh: boolean;
}

/** The result, once the game is over (§13). */
export interface ImhotepOutcome {
  __typename?: "ImhotepOutcome";
  /** Final score per seat. */
  scores: Array<number>;
  /** Rank per seat, 1 = first; tied seats share a rank. */
  ranks: Array<number>;
  /** The winning seats (several on a tie). */
  winners: Array<number>;
}

/** Who must act now and on what (§10.1). */
export interface ImhotepPending {
  __typename?: "ImhotepPending";
  /** A turn action, or the kind of the pending decision. */
  kind: ImhotepPendingKind;
  /** The seat that must act. */
  owner: number;
  /** The legal actions (as for `act`), for the owner only (or after the game); null for everyone else. */
  options: Array<JSONValue> | null;
}

/** What the game waits for (§10): "turn" (a turn action, §6) or a decision kind (§10.2). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. TURN is "turn"); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepPendingKind = "TURN" | "MARKET_TAKE" | "MARKET_KEEP" | "PYRAMID_CHOICE" | "SHIP_BONUS" | "LEVER_ORDER" | "TEMPLE_CHOICE";

/** Every value of `ImhotepPendingKind`. */
export const ImhotepPendingKindValues: readonly ImhotepPendingKind[] = ["TURN", "MARKET_TAKE", "MARKET_KEEP", "PYRAMID_CHOICE", "SHIP_BONUS", "LEVER_ORDER", "TEMPLE_CHOICE"];

/** The parameters of Imhotep: Place a stone on a ship (§6.2), the action `place_stone`. */
export interface ImhotepPlaceStoneInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A slot of that ship, from 1 (§1.2): at least 1, at most 4. */
  slot: number;
}

/** The parameters of Imhotep: Play the Chisel: place two stones (§9.6, C-5), the action `play_chisel`. */
export interface ImhotepPlayChiselInput {
  /** The first slot, before the second in (ship, slot) order. */
  first: ImhotepShipSlotInput;
  /** The second slot. */
  second: ImhotepShipSlotInput;
}

/** The parameters of Imhotep: Play the Hammer: take stones and place one (§9.6), the action `play_hammer`. */
export interface ImhotepPlayHammerInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A slot of that ship, from 1 (§1.2): at least 1, at most 4. */
  slot: number;
}

/** The parameters of Imhotep: Play the Lever: sail a ship and choose the unloading order (§9.6), the action `play_lever`. */
export interface ImhotepPlayLeverInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A site with a free dock (§1.5). */
  site: ImhotepSite;
}

/** The parameters of Imhotep: Play the Sail: place a stone and sail that ship (§9.6), the action `play_sail`. */
export interface ImhotepPlaySailInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A slot of that ship, from 1 (§1.2): at least 1, at most 4. */
  slot: number;
  /** A site with a free dock (§1.5). */
  site: ImhotepSite;
}

/** One seat's public position (§4): everything here is seen by everyone. */
export interface ImhotepPlayer {
  __typename?: "ImhotepPlayer";
  /** A seat number, 0-based in seating order (the index in `players`). */
  seat: number;
  /** The colour of the seat's stones. */
  colour: ImhotepColour;
  /** Points scored so far (unbounded, §4). */
  score: number;
  /** Stones on the seat's sled (0-5, §1.1). */
  sled: number;
  /** Stones left in the seat's quarry (§1.1). */
  quarry: number;
  /** Market cards in front of the player, in the order received (public, §4, §9.3): green, purple and blue cards not yet played. */
  cards: Array<ImhotepCard>;
}

/** One pyramid (side A has one, side B three: §8.3, §8.4). */
export interface ImhotepPyramid {
  __typename?: "ImhotepPyramid";
  /** Which pyramid. */
  name: ImhotepPyramidId;
  /** The seat of each stone on its spaces, in fill order. */
  stones: Array<number>;
  /** Number of spaces (14 on side A, 5 each on side B). */
  spaces: number;
}

/** A pyramid of the Pyramids site: "pyramid" (side A, §8.3) or one of the three of side B (§8.4). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. PYRAMID is "pyramid"); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepPyramidId = "PYRAMID" | "LEFT" | "MIDDLE" | "RIGHT";

/** Every value of `ImhotepPyramidId`. */
export const ImhotepPyramidIdValues: readonly ImhotepPyramidId[] = ["PYRAMID", "LEFT", "MIDDLE", "RIGHT"];

/** The Pyramids site (§8.3, §8.4). */
export interface ImhotepPyramidsSite {
  __typename?: "ImhotepPyramidsSite";
  /** Side of the Pyramids board. */
  side: ImhotepSide;
  /** The pyramids in order. */
  pyramids: Array<ImhotepPyramid>;
  /** Seats of the stones delivered once every space was full (1 point each, kept beside the board). */
  overflow: Array<number>;
}

/** A round card revealed so far (§1.3, §5.1). */
export interface ImhotepRoundCard {
  __typename?: "ImhotepRoundCard";
  /** Round card id, e.g. "3p-4" (a string: the ids are no enum names). */
  id: string;
  /** Capacities of the round's ships 1-4. */
  ships: Array<number>;
}

/** The parameters of Imhotep: Sail a ship to a site (§6.3), the action `sail`. */
export interface ImhotepSailInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A site with a free dock (§1.5). */
  site: ImhotepSite;
}

/** A ship of the current round (§1.2, §5.1). */
export interface ImhotepShip {
  __typename?: "ImhotepShip";
  /** Ship number 1-4 within this game (not global). */
  id: number;
  /** Number of slots (1-4). */
  capacity: number;
  /** Stones needed on board before it may sail (§1.2, §7.1). */
  minimum: number;
  /** The seat owning each slot's stone, null for an empty slot. */
  slots: Array<number | null>;
  /** Stones on board (non-null slots). */
  load: number;
  /** The site it sailed to, null while at sea (not sailed). */
  site: ImhotepSite | null;
}

/** A parameter of Imhotep actions made of `ship`, `slot`. */
export interface ImhotepShipSlotInput {
  /** A ship of this round, 1 to 4 (§1.2): at least 1, at most 4. */
  ship: number;
  /** A slot of that ship, from 1 (§1.2): at least 1, at most 4. */
  slot: number;
}

/** The side of a site's board (§2); the B sides' values are partly designed (§17.2). Enum values are the domain ids upper-cased (here the domain ids are 'A', 'B'); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepSide = "A" | "B";

/** Every value of `ImhotepSide`. */
export const ImhotepSideValues: readonly ImhotepSide[] = ["A", "B"];

/** The side (A or B) of each of the five sites (§2). */
export interface ImhotepSides {
  __typename?: "ImhotepSides";
  /** Side of the Market (§8.1, §8.2). */
  market: ImhotepSide;
  /** Side of the Pyramids (§8.3, §8.4). */
  pyramids: ImhotepSide;
  /** Side of the Temple (§8.5, §8.6). */
  temple: ImhotepSide;
  /** Side of the Burial chamber (§8.7, §8.8). */
  burialChamber: ImhotepSide;
  /** Side of the Obelisks (§8.9, §8.10). */
  obelisks: ImhotepSide;
}

/** One of the five sites a ship can sail to (§1.5, §8). Enum values are the domain ids upper-cased (the domain id is the value lower-cased, e.g. MARKET is "market"); the JSON view (`Game.state`) carries the domain id itself. */
export type ImhotepSite = "MARKET" | "PYRAMIDS" | "TEMPLE" | "BURIAL_CHAMBER" | "OBELISKS";

/** Every value of `ImhotepSite`. */
export const ImhotepSiteValues: readonly ImhotepSite[] = ["MARKET", "PYRAMIDS", "TEMPLE", "BURIAL_CHAMBER", "OBELISKS"];

/** The four building sites (the Market is `ImhotepState.market`). */
export interface ImhotepSites {
  __typename?: "ImhotepSites";
  /** The Pyramids. */
  pyramids: ImhotepPyramidsSite;
  /** The Temple. */
  temple: ImhotepTemple;
  /** The Burial chamber. */
  burialChamber: ImhotepBurialChamber;
  /** The Obelisks. */
  obelisks: ImhotepObelisks;
}

/** An Imhotep game as the caller may see it (typed `Game.state`, §14). */
export interface ImhotepState {
  __typename?: "ImhotepState";
  /** Always "imhotep". */
  game: string;
  /** The round, 1-6 (§5). */
  round: number;
  /** Rounds in a game (6). */
  rounds: number;
  /** The seat this view is for; null for a spectator. */
  viewer: number | null;
  /** The seat whose turn it is (§5.2); a decision may be pending. */
  currentPlayer: number;
  /** The seat that started this round. */
  startPlayer: number;
  /** The table options (§2). */
  options: ImhotepOptions;
  /** Every seat, in seat order. */
  players: Array<ImhotepPlayer>;
  /** The round's four ships. */
  ships: Array<ImhotepShip>;
  /** The ship docked at each site. */
  docks: ImhotepDocks;
  /** The Market site. Never null for Imhotep; nullable like AmunReState.market so that one query can select `market` in both members of GameView. */
  market: ImhotepMarket | null;
  /** The four building sites. */
  sites: ImhotepSites;
  /** The discard pile (face up, public; order irrelevant, §9.1). */
  discardPile: Array<ImhotepCard>;
  /** Cards in the face-down draw pile (§9.1). */
  drawPileCount: number;
  /** Round cards not yet revealed (§1.3). */
  roundStackCount: number;
  /** The round cards revealed so far, oldest first. */
  roundCards: Array<ImhotepRoundCard>;
  /** Consecutive forced passes this round (§6.5). */
  passes: number;
  /** Who must act now; null before the game or once it is over. */
  pending: ImhotepPending | null;
  /** The final scoring steps done so far (§13). */
  finalScoring: ImhotepFinalScoring;
  /** The game is over (after round 6). */
  gameOver: boolean;
  /** The result; null until the game is over. */
  outcome: ImhotepOutcome | null;
  /** The hidden piles: only in the full view (after the game). */
  hidden: ImhotepHidden | null;
}

/** The parameters of Imhotep: Take a face-up market card (§8.1), the action `take_card`. */
export interface ImhotepTakeCardInput {
  /** A market card (§1.4). */
  card: ImhotepCard;
}

/** The Temple site (§8.5, §8.6). */
export interface ImhotepTemple {
  __typename?: "ImhotepTemple";
  /** Side of the Temple board. */
  side: ImhotepSide;
  /** Number of columns (4 with 2 players, else 5). */
  width: number;
  /** Seats of the stones in delivery order; the k-th (0-based) lies in column k mod width. */
  stones: Array<number>;
  /** Per column, the seat of its top (visible) stone, null for an empty column; these score at every end of round (§12). */
  visible: Array<number | null>;
}

/** The parameters of Imhotep: Choose the unloading order (Lever) (§9.6, C-6), the action `unload_order`. */
export interface ImhotepUnloadOrderInput {
  /** The seat of every stone on board, in unloading order. */
  order: Array<number>;
}

/** A player's record in one game kind (ranked finished games). */
export interface KindRecord {
  __typename?: "KindRecord";
  /** Which game. */
  kind: GameKind;
  /** Ranked games finished. */
  gamesPlayed: number;
  /** Of those, games won (a shared win counts). */
  gamesWon: number;
  /** Average final score (0 without games). */
  averageScore: number;
}

/** The result of `verifyLog`: the hash chain, the seed against its commitment and every event replayed through the rules. */
export interface LogVerification {
  __typename?: "LogVerification";
  /** Every checked event holds. */
  ok: boolean;
  /** How many events were checked. */
  checkedEvents: number;
  /** The first event that does not hold. */
  badVersion: number | null;
  /** What does not hold at `badVersion`; null when ok. */
  reason: string | null;
  /** The id of the server key that signs this finished game's chain head (its export carries the signature; the public keys are at `GET /api/v1/keys`); null for a game not finished, an imported copy, a log that does not hold, or a server without a signing key. */
  signedBy: string | null;
  /** The signature of the chain head, as an export carries it: `{alg, keyId, gameId, head, value}` (docs/API.md, "Signed records"); null when `signedBy` is. */
  signature: JSONValue | null;
}

/** A legal action with a label for a user interface. */
export interface Move {
  __typename?: "Move";
  /** The action, exactly as `act` accepts it. */
  action: JSONValue;
  /** A human label, e.g. "Place a stone on ship 2, slot 3". */
  label: string;
  /** The action's `type` (its `actionCatalog` name). */
  type: string;
  /** The same action typed: exactly the value `act(typedAction:)` takes, one member of `ActionInput` (`{"imhotepPlaceStone": {"ship": 2, "slot": 3}}`, enum values by their GraphQL names); sent back as `typedAction` it plays the same action as `action`. */
  typedAction: ActionInput;
}

/** The write operations: players, tables, play, undo, import, forks. */
export interface Mutation {
  __typename?: "Mutation";
  /** Open registration; the token is shown once. */
  registerPlayer: PlayerSession;
  /** A new token for the caller; the one sent with this request stops working at once, in every server process. Shown once, like the first. */
  rotateToken: PlayerSession;
  /** Revoke the token sent with this request, at once in every server process. A player has one token at a time and no password, so this signs the player out for good; to change a token and keep playing, use rotateToken. */
  logout: boolean;
  /** Delete the caller's account: the token stops working and the name is shown as 'Deleted player' everywhere (seats, events, summaries, profiles, leaderboards, exports); finished games stay and still verify. Refused (FORBIDDEN) while the caller holds a seat at a game that is not over: finish or abandon it first. */
  deleteAccount: boolean;
  /** A new open table; the creator is not seated automatically. */
  createGame: Game;
  /** Take a seat (the first free one if none is given). */
  joinGame: Game;
  /** A server-side bot takes a seat and plays when it must. `strategy` is its level: "random" (the default), "greedy" or "mcts" (docs/bots.md "Bot levels"). FORBIDDEN past the caller's bounds (tables with bots, searching bots: the message names the bound), and for the last free seat of a table where no person sits. */
  addBot: Game;
  /** Close a table without a result: its creator while it is open, a seated player once it runs. */
  abandonGame: Game;
  /** Take back your seat that a bot plays since your time ran out (a timed table whose policy is `takeover`): the bot stops, and you are on the clock again from the seat's next turn with a full move or bank. `seat`: which of your seats (default: every one taken over). The game still counts as a loss for you in ratings. */
  reclaimSeat: Game;
  /** Take actions back to right after `toVersion` (default: your last action). Your own last actions go at once; across another seat's action every other human seat must accept (answerUndo). Never across a random draw or a reveal. */
  requestUndo: Game;
  /** Accept or refuse the pending undo request. */
  answerUndo: Game;
  /** Check an exported game by re-running the rules and store it as a new finished game; BAD_INPUT says exactly what does not hold. */
  importGame: Game;
  /** A new sandbox table that starts from a game as it was at `atVersion` (unranked, marked as a fork). Anybody may fork a finished game (its events are replayed). A game that is not finished may be forked only by one of its players: the fork starts from what that player's seats could see, everything hidden from them re-dealt from the fork's own seed, and seats the player at those seats; the other seats are open (players or bots). Once over, a fork reveals its whole log like any game, the forking player's hidden items at the fork included. */
  forkGame: Game;
  /** One action for the caller's seat: as JSON in `action` (one of `legalActions`) or typed in `typedAction`, exactly one of the two (BAD_INPUT otherwise). */
  act: ActResult;
}

/** The arguments of `Mutation.registerPlayer`. */
export interface MutationRegisterPlayerArgs {
  /** The name shown to others (not unique). */
  name: string;
}

/** The arguments of `Mutation.createGame`. */
export interface MutationCreateGameArgs {
  /** The table to create. */
  input: CreateGameInput;
}

/** The arguments of `Mutation.joinGame`. */
export interface MutationJoinGameArgs {
  /** A game's id. */
  gameId: string;
  /** The seat number (0-based); null: the first free seat. */
  seat?: number | null;
}

/** The arguments of `Mutation.addBot`. */
export interface MutationAddBotArgs {
  /** A game's id. */
  gameId: string;
  /** The seat number (0-based); null: the first free seat. */
  seat?: number | null;
  /** The bot's level: "random" (null: the default), "greedy" or "mcts". */
  strategy?: string | null;
}

/** The arguments of `Mutation.abandonGame`. */
export interface MutationAbandonGameArgs {
  /** A game's id. */
  gameId: string;
  /** Why, in words (kept with the table; optional). */
  reason?: string | null;
}

/** The arguments of `Mutation.reclaimSeat`. */
export interface MutationReclaimSeatArgs {
  /** A game's id. */
  gameId: string;
  /** Which of your seats; null: every one taken over. */
  seat?: number | null;
}

/** The arguments of `Mutation.requestUndo`. */
export interface MutationRequestUndoArgs {
  /** A game's id. */
  gameId: string;
  /** Return to right after this event number of your log; null: before your last action. */
  toVersion?: number | null;
}

/** The arguments of `Mutation.answerUndo`. */
export interface MutationAnswerUndoArgs {
  /** A game's id. */
  gameId: string;
  /** True accepts the undo, false refuses it. */
  accept: boolean;
}

/** The arguments of `Mutation.importGame`. */
export interface MutationImportGameArgs {
  /** A document `exportGame` produced. */
  document: JSONValue;
}

/** The arguments of `Mutation.forkGame`. */
export interface MutationForkGameArgs {
  /** A game's id. */
  gameId: string;
  /** Fork the game as it was right after this event number. */
  atVersion: number;
}

/** The arguments of `Mutation.act`. */
export interface MutationActArgs {
  /** A game's id. */
  gameId: string;
  /** The action as JSON, `{"type": "snake_case_name", ...parameters}`: one of `legalActions`, its shape in `actionCatalog`. Omit it to send `typedAction` instead. */
  action?: JSONValue | null;
  /** Refuse (CONFLICT) unless the game is at this version (`Game.version`); null: no check. */
  expectedVersion?: number | null;
  /** A key of yours for this action: sent again, the same key answers the first result without acting twice; reused with another action, BAD_INPUT. */
  idempotencyKey?: string | null;
  /** Which of the caller's seats acts (for a player holding several; FORBIDDEN if the caller does not hold it). Default: the seat that must act now. */
  seat?: number | null;
  /** The action, typed (one member per game kind and action); the same action as the JSON `action` would be. Send it instead of `action`, for a game of the member's kind. */
  typedAction?: ActionInput | null;
}

/** An object with a global id that `node(id:)` finds again (Relay); today every node is a `Game`. */
export interface Node {
  /** The object's global id. */
  id: string;
}

/** Relay page information of a connection. */
export interface PageInfo {
  __typename?: "PageInfo";
  /** More items follow this page. */
  hasNextPage: boolean;
  /** The cursor of this page's last item, to pass as `after` for the next page. */
  endCursor: string | null;
  /** Whether items come before this page (an `after` was given). */
  hasPreviousPage: boolean;
  /** The cursor of this page's first item (null when empty). */
  startCursor: string | null;
}

/** A registered player (open registration, `registerPlayer`). */
export interface Player {
  __typename?: "Player";
  /** The player's id (stable). */
  id: string;
  /** The name shown to others (not unique). */
  name: string;
}

/** A player's public profile, kept from ranked finished games (unranked tables: forks, imported copies, chosen seeds, do not count). */
export interface PlayerProfile {
  __typename?: "PlayerProfile";
  /** The player's id. */
  playerId: string;
  /** The player's name. */
  name: string;
  /** Ranked games finished, every kind. */
  gamesPlayed: number;
  /** Of those, games won (a shared win counts). */
  gamesWon: number;
  /** Average final score (0 without games). */
  averageScore: number;
  /** The same record per game kind. */
  byKind: Array<KindRecord>;
  /** The most recently finished games, newest first. */
  recentGames: Array<RecentGame>;
  /** Average thinking time per timed turn over the player's finished games at timed tables, in milliseconds (null: none yet). */
  averageThinkingMs: number | null;
}

/** A player's rating in one game kind, with its history (the latest rated games). */
export interface PlayerRating {
  __typename?: "PlayerRating";
  /** Which game. */
  kind: GameKind;
  /** The player's place on the kind's leaderboard, 1 = best rating. */
  rank: number;
  /** The current Elo rating. */
  rating: number;
  /** Rated games played in this kind. */
  games: number;
  /** Of those, games won (a shared win counts). */
  wins: number;
  /** The highest rating the player ever had. */
  peak: number;
  /** The rating after each of the player's latest rated games of this kind (up to 60), oldest first; the rating before the first one is 1500 when `games` is their count. */
  history: Array<RatingPoint>;
}

/** What `registerPlayer` returns: the new player and its token. */
export interface PlayerSession {
  __typename?: "PlayerSession";
  /** The player just registered. */
  player: Player;
  /** Shown once; the server keeps only its hash. */
  token: string;
}

/** The read operations: games, catalogs, read models and audits. */
export interface Query {
  __typename?: "Query";
  /** The caller; null for a spectator. */
  me: Player | null;
  /** Every action of a game kind: its parameters, label, rule and JSON Schema (the vocabulary of `legalActions` and `act`). */
  actionCatalog: Array<ActionSpec>;
  /** The static catalog a renderer needs to draw a game kind's board, for the current rules version (`rulesVersion`), as the game declares it: its sites, cards, provinces, tiles, ships or scoring tables, with their texts. Values the rules spec marks as designed carry `"designed": true` and `"spec"` (the section). Every id the game's `state` refers to is found here. */
  catalog: JSONValue;
  /** Every game the server plays, as its package registers it: names, seat ranges, rules versions and the web client's board for each. */
  gameKinds: Array<GameKindInfo>;
  /** The game as the caller may see it; null if there is none. */
  game: Game | null;
  /** The object with this global id (Relay), or null: every node is a `Game`. */
  node: Node | null;
  /** Games, newest first, with Relay cursor pagination. */
  games: GameConnection;
  /** Game summaries from the read model (public facts only), newest first; `player` finds the games a player sat at. */
  gameSummaries: GameSummaryConnection;
  /** Open tables with free seats, newest first. */
  lobby: GameSummaryConnection;
  /** A player's profile: games played and won, average score. */
  player: PlayerProfile | null;
  /** Ratings (multi-player Elo) of one game, best first. */
  leaderboard: RatingConnection;
  /** A player's ratings, one per game kind they were rated in, each with its place on the leaderboard and its recent history (the profile's chart). */
  playerRatings: Array<PlayerRating>;
  /** Points by scoring source over the finished games of a kind. */
  statistics: GameStatistics;
  /** How far each read model has applied the event store. */
  readModels: ReadModelStatus;
  /** Recompute the hash chain, check the seed against its commitment and replay every event through the rules; reports the first event that does not hold. */
  verifyLog: LogVerification;
  /** A finished game as one portable JSON document. */
  exportGame: JSONValue;
}

/** The arguments of `Query.actionCatalog`. */
export interface QueryActionCatalogArgs {
  /** Which game. */
  kind: GameKind;
}

/** The arguments of `Query.catalog`. */
export interface QueryCatalogArgs {
  /** Which game. */
  kind: GameKind;
}

/** The arguments of `Query.game`. */
export interface QueryGameArgs {
  /** A game's id. */
  id: string;
  /** Read your own writes on any server: the game at least at this version of your log (an `act`'s `game.version`). A server that has not heard of it yet asks the store. */
  minVersion?: number | null;
}

/** The arguments of `Query.node`. */
export interface QueryNodeArgs {
  /** A global id (a game's id). */
  id: string;
}

/** The arguments of `Query.games`. */
export interface QueryGamesArgs {
  /** Only games of this kind (null: every kind). */
  kind?: GameKind | null;
  /** Only games with this status (null: any status). */
  status?: GameStatus | null;
  /** Page size, 0-200 (default 50). */
  first?: number | null;
  /** A cursor of the previous page (`endCursor`): the page starts after it. */
  after?: string | null;
  /** Only the games this player (a `Player.id`) sat at. */
  player?: string | null;
}

/** The arguments of `Query.gameSummaries`. */
export interface QueryGameSummariesArgs {
  /** Only games of this kind (null: every kind). */
  kind?: GameKind | null;
  /** Only games with this status (null: any status). */
  status?: GameStatus | null;
  /** Only the games this player (a `Player.id`) sat at. */
  player?: string | null;
  /** Page size, 0-200 (default 50). */
  first?: number | null;
  /** A cursor of the previous page (`endCursor`): the page starts after it. */
  after?: string | null;
  /** Read your own writes: wait (5 s at most) until the read models have applied this store position (`readModels.storePosition` after your write). */
  minPosition?: number | null;
}

/** The arguments of `Query.lobby`. */
export interface QueryLobbyArgs {
  /** Only games of this kind (null: every kind). */
  kind?: GameKind | null;
  /** Only tables whose options include these (a JSON object of option: value; null: any options). */
  options?: JSONValue | null;
  /** Page size, 0-200 (default 50). */
  first?: number | null;
  /** A cursor of the previous page (`endCursor`): the page starts after it. */
  after?: string | null;
  /** Read your own writes: wait (5 s at most) until the read models have applied this store position (`readModels.storePosition` after your write). */
  minPosition?: number | null;
}

/** The arguments of `Query.player`. */
export interface QueryPlayerArgs {
  /** The player's id. */
  id: string;
}

/** The arguments of `Query.leaderboard`. */
export interface QueryLeaderboardArgs {
  /** Which game. */
  kind: GameKind;
  /** Page size, 0-200 (default 50). */
  first?: number | null;
  /** A cursor of the previous page (`endCursor`): the page starts after it. */
  after?: string | null;
}

/** The arguments of `Query.playerRatings`. */
export interface QueryPlayerRatingsArgs {
  /** The player's id. */
  player: string;
}

/** The arguments of `Query.statistics`. */
export interface QueryStatisticsArgs {
  /** Which game. */
  kind: GameKind;
}

/** The arguments of `Query.verifyLog`. */
export interface QueryVerifyLogArgs {
  /** A game's id. */
  gameId: string;
}

/** The arguments of `Query.exportGame`. */
export interface QueryExportGameArgs {
  /** A game's id. */
  gameId: string;
}

/** A leaderboard line: multi-player Elo (every pair of a game's players counts as one match, K 32, start 1500) over ranked games without bots. */
export interface Rating {
  __typename?: "Rating";
  /** Place on the leaderboard, 1 = best rating. */
  rank: number;
  /** The player's id. */
  playerId: string;
  /** The player's name. */
  name: string;
  /** The current Elo rating. */
  rating: number;
  /** Rated games played in this kind. */
  games: number;
  /** Of those, games won (a shared win counts). */
  wins: number;
  /** The highest rating the player ever had. */
  peak: number;
}

/** A page of the leaderboard (Relay connection). */
export interface RatingConnection {
  __typename?: "RatingConnection";
  /** The page's lines, with cursors. */
  edges: Array<RatingEdge>;
  /** The page's lines. */
  nodes: Array<Rating>;
  /** Where this page lies. */
  pageInfo: PageInfo;
  /** How many players the leaderboard ranks, over every page. */
  totalCount: number;
}

/** A leaderboard line of a page, with its cursor. */
export interface RatingEdge {
  __typename?: "RatingEdge";
  /** Pass as `after` to read the lines after it. */
  cursor: string;
  /** The line. */
  node: Rating;
}

/** A player's rating right after one rated game. */
export interface RatingPoint {
  __typename?: "RatingPoint";
  /** The rated game (`game(id:)`; its replay). */
  gameId: string;
  /** The player's Elo rating right after it. */
  rating: number;
  /** When the game finished (ISO 8601, UTC). */
  at: string | null;
}

/** How far one read model has applied the store's notifications. */
export interface ReadModelPosition {
  __typename?: "ReadModelPosition";
  /** The read model's name. */
  name: string;
  /** How far it has applied the store, as a public position: the number of game events everybody sees up to there (another seat's private steps do not count). */
  position: number;
}

/** How far the read models (summaries, lobby, profiles, ratings) lag behind the store: pass a position as `minPosition` to read your own writes. */
export interface ReadModelStatus {
  __typename?: "ReadModelStatus";
  /** The store's public position: the number of game events everybody sees (another seat's private steps do not count). */
  storePosition: number;
  /** Each read model's position. */
  readModels: Array<ReadModelPosition>;
}

/** One of a player's recently finished ranked games. */
export interface RecentGame {
  __typename?: "RecentGame";
  /** The game's id. */
  gameId: string;
  /** Which game. */
  kind: GameKind;
  /** The player's seat in it. */
  seat: number;
  /** The player's final score. */
  score: number;
  /** The player's final rank (1 = first); null when unknown. */
  rank: number | null;
  /** The player won (or shared the win). */
  won: boolean;
  /** When the game finished (ISO 8601, UTC). */
  finishedAt: string;
}

/** One step of `Game.replay`: an event and the state after it. */
export interface ReplayStep {
  __typename?: "ReplayStep";
  /** The event (as the caller may see it). */
  event: GameEvent;
  /** The state right after the event. */
  state: JSONValue;
  /** The state right after the event as typed GraphQL (the same information as `state`); null before the game starts. */
  view: GameView | null;
  /** A timed table's clock right after the event (each seat's thinking time so far and remaining time, from the log's own times); null without a time control. */
  clock: GameClock | null;
}

/** Points scored from one source over the finished games of a kind. */
export interface ScoreSource {
  __typename?: "ScoreSource";
  /** Where the points came from: the scoring item or site the game's scoring event names ("pyramids", "temple" …), else the scoring event's name; "other" for the rest. */
  source: string;
  /** Points from this source, all games together. */
  points: number;
  /** `points` divided by the games. */
  averagePerGame: number;
}

/** One seat of a table and who holds it. */
export interface Seat {
  __typename?: "Seat";
  /** The seat number, 0-based in seating order. */
  seat: number;
  /** The player seated here; null for a free seat or a bot. */
  player: Player | null;
  /** A server-side bot plays this seat (`addBot`). */
  isBot: boolean;
  /** The bot's strategy (`addBot`); null for a human seat. */
  strategy: string | null;
  /** A bot of the table's take-over level plays the seat since its player's time ran out (zombie); `reclaimSeat` gives it back. */
  takenOver: boolean;
}

/** One seat's clock. */
export interface SeatClock {
  __typename?: "SeatClock";
  /** The seat. */
  seat: number;
  /** Time the seat has left now (its whole time for its next turn while it is not on the clock), in milliseconds. */
  remainingMs: number;
  /** When the seat's time runs out, while it must act (else null). */
  deadline: string | null;
  /** The seat is on the clock now. */
  running: boolean;
  /** A bot plays the seat since its time ran out (zombie), until its player reclaims it. */
  takenOver: boolean;
  /** The seat's time ran out at least once in this game (it counts as a loss). */
  timedOut: boolean;
  /** Time the seat's player spent on its turns so far, in milliseconds. */
  thinkingMs: number;
  /** How many of the seat's turns were timed. */
  turns: number;
}

/** Live updates over the websocket (`graphql-transport-ws`). */
export interface Subscription {
  __typename?: "Subscription";
  /** Every event after `afterVersion` (catch-up; default: the current version), then live, as the caller may see it; completes after the game ends. */
  gameEvents: GameEvent;
  /** Like `gameEvents` (the same events, numbered alike), each with everything a client needs to redraw the game right after it, as the caller may see it: a client can keep its screen current from this subscription alone. */
  gameChanged: GameChange;
  /** Tables as they are created, seated, started, finished or abandoned (the summary after the change; a table left the lobby when it is no longer OPEN). */
  lobbyChanged: GameSummary;
}

/** The arguments of `Subscription.gameEvents`. */
export interface SubscriptionGameEventsArgs {
  /** A game's id. */
  gameId: string;
  /** Catch up from the event after this number of the caller's log (0: from the first); null: only what happens from now on. */
  afterVersion?: number | null;
}

/** The arguments of `Subscription.gameChanged`. */
export interface SubscriptionGameChangedArgs {
  /** A game's id. */
  gameId: string;
  /** Catch up from the event after this number of the caller's log (0: from the first); null: only what happens from now on. */
  afterVersion?: number | null;
}

/** The arguments of `Subscription.lobbyChanged`. */
export interface SubscriptionLobbyChangedArgs {
  /** Only tables of this kind (null: every kind). */
  kind?: GameKind | null;
}

/** A seat of a game summary (public facts only). */
export interface SummarySeat {
  __typename?: "SummarySeat";
  /** The seat number, 0-based in seating order. */
  seat: number;
  /** The seated player's id; null for a free seat or a bot. */
  playerId: string | null;
  /** The seated player's (or bot's) name; null for a free seat. */
  name: string | null;
  /** A server-side bot holds the seat. */
  isBot: boolean;
}

/** How a timed table's clock runs (the table option `clock.mode`). */
export type TimeControl = "MOVE" | "BANK";

/** Every value of `TimeControl`. */
export const TimeControlValues: readonly TimeControl[] = ["MOVE", "BANK"];

/** An undo asked for and waiting for the other seats' answers. */
export interface UndoRequest {
  __typename?: "UndoRequest";
  /** The game's version when it was asked. */
  version: number;
  /** The seat that asked. */
  seat: number;
  /** The version the game would return to. */
  toVersion: number;
  /** Seats whose answer is still needed. */
  waiting: Array<number>;
}

/** Whether the caller may take its last action back now (`requestUndo`). */
export interface UndoStatus {
  __typename?: "UndoStatus";
  /** The caller may take its last action back. */
  allowed: boolean;
  /** Without asking the other seats. */
  immediate: boolean;
  /** The version the game would return to; null when not allowed. */
  toVersion: number | null;
  /** Why it is allowed or not, in words. */
  reason: string;
}
