"""The transports: GraphQL (with websockets) and REST, over the application layer."""
