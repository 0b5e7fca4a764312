"""Packages that setuptools cannot find by scanning: the shipped data directories mapped into the wheel."""

from setuptools import find_packages, setup

SHIPPED = ["wmaplint._shipped.catalog", "wmaplint._shipped.rules", "wmaplint._shipped.schemas"]

setup(packages=find_packages(include=["wmaplint", "wmaplint.*"]) + SHIPPED)
