"""Hidden information: no read path shows a seat's secrets, the seed or its salt to another."""
