from unittest.mock import *
