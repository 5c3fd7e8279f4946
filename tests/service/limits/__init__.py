"""What a client may cost: GraphQL limits, rate limits, subscription budgets and abuse."""
