"""One declaration per response shape, shared by both transports.

A shape (``declare.shape``) is a dataclass whose fields carry their description once, with the
facts where GraphQL and REST really differ (a name, a field one of them lacks, a type one of
them shows otherwise). The transports derive their types from it: GraphQL its strawberry types
(``service.api.graphql.shaped``), REST its pydantic bodies (``service.api.rest.shaped``). Both
build their values from the same snake_case data (the builders beside each family's shapes).

This package knows neither strawberry nor pydantic: the types that the two spell differently
are markers here (``declare.Id``, ``Kind``, ``Status``, ``Json``, ``Value``, ``Timestamp``,
``Instant``, ``Moment``, ``Choice``), which each derivation maps to its own; ``Own`` leaves a
field's type to the class that derives the shape.
"""
