"""The API over its transports: HTTP, GraphQL, REST, websockets, and clients that misbehave."""
