"""The four game systems; each is a package that implements :mod:`meneur.systems.base`."""
