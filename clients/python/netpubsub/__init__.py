"""netpubsub: the Python client of the in-network pub/sub (docs/clients.md).

::

    from netpubsub import Publisher, Subscriber
    sub = Subscriber("http://[fd6e:7073:ffff::c0]:8080", "price > 500")
    pub = Publisher("http://[fd6e:7073:ffff::c0]:8080")
    pub.advertise("price > 100")
    pub.publish({"symbol": "ACME", "price": 600, "volume": 7}, b"hello")
    print(next(sub).event.attrs)
"""

from .aio import AsyncPublisher, AsyncSubscriber
from .codec import EventCodec
from .config import PubSubConfig
from .controller import ControllerClient, Registration, Removal
from .errors import (ControllerError, DecodeError, FilterError, InvalidInputError,
                     NetpubsubError, SchemaError)
from .evaluator import Filter
from .event import Event
from .index import SpatialIndex, format_address
from .publisher import Publisher
from .schema import IntAttribute, Schema, StringAttribute
from .schema_yaml import parse_schema_yaml
from .subscriber import Delivery, Subscriber

__version__ = "0.1.0"
__all__ = ["AsyncPublisher", "AsyncSubscriber", "ControllerClient", "ControllerError",
           "DecodeError", "Delivery", "Event", "EventCodec", "Filter", "FilterError",
           "IntAttribute", "InvalidInputError", "NetpubsubError", "PubSubConfig", "Publisher",
           "Registration", "Removal", "Schema", "SchemaError", "SpatialIndex", "StringAttribute",
           "Subscriber", "format_address", "parse_schema_yaml"]
